#!/bin/bash
# Issue 28 item 15: shell completion for bash and zsh, generated from what
# mmbench itself holds: the command table, each subcommand table, the
# option tables (--list-options), the renderer table, the plugin path and
# the results DB (labels, run ids).  Each case completes a command line as
# a user types it and checks the candidates.
. "$(dirname "$0")/../e2e-lib.sh"
SRC=${MMBENCH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FIX=$SRC/tests/fixtures/compare
"$MMB" -q import --name fc21959f74 "$FIX/aim9-base.csv"
"$MMB" -q import --name cacded5e42 "$FIX/aim9-new.csv"
cd "$TMP"
touch exp.yaml other.txt
comp() {	# WORDS... (the last one being completed): the candidates, sorted, one line
	bash -c '
		. "$1/tools/completion/mmbench.bash"
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_mmbench
		printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' _ "$SRC" "$MMB" "$@"
}
want() {	# EXPECTED WORDS...
	local exp=$1 got
	shift
	got=$(comp "$@")
	[ "$got" = "$exp" ] || die "bash: mmbench ${*:2}|: got '$got', want '$exp'"
}
want "compare " co
want "kernel " ker
want "build list rm " kernel ""
want "cancel collect resubmit status submit wait " fleet ""
want "--format " compare --fo
want "csv json lkp markdown mmtests text " compare --format ""
want "cacded5e42 fc21959f74 " compare ""
want "cacded5e42 fc21959f74 " compare --format lkp fc21959f74 ""
want "1 2 " show ""
want "kernels runs workloads " list ""
want "exp.yaml " run ""
want "skeleton " run --workload sk
want "--db --verbose " list --
# the option list is the command's own table: every option compare --help documents
for o in $("$MMB" compare --list-options | awk '{ print $1 }'); do
	comp compare "${o:0:4}" | grep -q -- "$o " || die "bash: $o not offered for compare"
done
# --db elsewhere: labels come from that database
mkdir d && mv "$MMBENCH_DB" d/x.db
want " " compare ""	# no database here: nothing (printf of an empty list)
want "cacded5e42 fc21959f74 " compare --db d/x.db ""
want "cacded5e42 fc21959f74 " compare --db=d/x.db ""
mv d/x.db "$MMBENCH_DB"

# zsh: the same candidates through its completion function (compadd and
# _files stand in for the completion system)
command -v zsh > /dev/null || { echo "ok (zsh not installed: bash only)"; exit 0; }
zcomp() {
	zsh -f -c '
		compadd() { if [[ $1 == -a ]]; then print -l -- ${(P)2}; else print -l -- "$@"; fi }
		_files() { print -- "FILES $*" }
		src=$1; shift
		words=("$@")
		CURRENT=$#
		source "$src/tools/completion/_mmbench"' _ "$SRC" "$MMB" "$@" | sort | tr "\n" " "
}
zwant() {
	local exp=$1 got
	shift
	got=$(zcomp "$@")
	[ "$got" = "$exp" ] || die "zsh: mmbench ${*}|: got '$got', want '$exp'"
}
zsh -n "$SRC/tools/completion/_mmbench" || die "zsh: syntax"
zwant "ab bisect compare export fleet help import kernel list merge plot report reproduce restore rm run show vm " ""
zwant "build list rm " kernel ""
zwant "csv json lkp markdown mmtests text " compare --format ""
zwant "cacded5e42 fc21959f74 " compare ""
zwant "1 2 " rm ""
zwant "FILES -g *.yaml " run ""
echo ok
