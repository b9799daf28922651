#!/bin/bash
# An option that needs a value, given none, must not take the next option as
# its value (`--db -q` once created a database named "-q"): every command
# says "option --db needs a value" and exits 2, and creates nothing.  The
# value can still start with '-' when written --opt=VALUE, and that form
# works in every command.
. "$(dirname "$0")/../e2e-lib.sh"
MMB=$(cd "$(dirname "$MMB")" && pwd)/mmbench
cd "$TMP"
unset MMBENCH_DB
export MMBENCH_CACHE=$TMP/cache
: > cfg.yaml

# "COMMAND|OPTION|MORE ARGS": OPTION is left without its value before -q
cases=(
	"run|--db|cfg.yaml"
	"compare|--db|a b"
	"plot|--db|a b"
	"report|--db|--out o a b"
	"import|--db|--name x cfg.yaml"
	"list|--db|runs"
	"show|--db|last"
	"kernel build|--tree|--name x"
	"kernel list|--cache|"
	"kernel rm|--cache|x"
	"vm run|--db|--kernel k cfg.yaml"
	"ab|--db|--base-name a --new-name b cfg.yaml"
	"reproduce|--db|report.txt"
)
try() {	# try ARGS...: sets rc, out, err
	set +e
	"$MMB" "$@" > out 2> err
	rc=$?
	set -e
}
for c in "${cases[@]}"; do
	IFS='|' read -r cmd opt more <<< "$c"
	read -r -a cmd <<< "$cmd"
	read -r -a more <<< "$more"
	what="${cmd[*]} $opt"
	try "${cmd[@]}" "$opt" -q "${more[@]}"
	cat err
	[ "$rc" = 2 ] || die "$what -q: exit $rc, expected 2"
	grep -qF "option $opt needs a value" err || die "$what -q: no 'option $opt needs a value'"
	[ ! -e ./-q ] || die "$what -q: created a file named -q"
	# at the end of the line too
	try "${cmd[@]}" "${more[@]}" "$opt"
	[ "$rc" = 2 ] && grep -qF "option $opt needs a value" err || die "$what (last): exit $rc, $(cat err)"
	# --opt=VALUE is taken, even a value starting with '-': whatever fails next, not the option
	try "${cmd[@]}" "$opt=-v" "${more[@]}"
	if grep -qE "needs a value|unknown (option|argument)" err; then
		die "$what=-v: the option was not taken: $(cat err)"
	fi
done
# a negative number is a value, not an option: the range check answers
try run cfg.yaml --iterations -3
grep -qF -- "--iterations wants a positive number, not '-3'" err || die "--iterations -3: $(cat err)"
echo ok
