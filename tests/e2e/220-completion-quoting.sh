#!/bin/bash
# Issue 42 item 2: completing a label ran code from the database.  A label
# 'c${PATH:0:0}$(touch${IFS}FILE)' (import --name, or merged from someone
# else's DB) went through `compgen -W`, which expands $(...) and ${...}
# in its word list: TAB after `mmbench compare ` created FILE.  The
# candidates are data now: bash matches them in bash and inserts each one
# printf %q-quoted, zsh's compadd quotes them.  Checked with bash's
# completion function and with a real interactive zsh (zpty).
. "$(dirname "$0")/../e2e-lib.sh"
SRC=${MMBENCH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FIX=$SRC/tests/fixtures/compare
P=$TMP/pwned
evil='c${PATH:0:0}$(touch${IFS}'"$P"'.1)`touch${IFS}'"$P"'.2`'
"$MMB" -q import --name "$evil" "$FIX/aim9-base.csv"
"$MMB" -q import --name 'two words' "$FIX/aim9-new.csv"
cd "$TMP"
touch 'f$(touch pwned.3).yaml'
comp() {	# WORDS... (the last one being completed): COMPREPLY, one a line
	bash -c '
		. "$1/tools/completion/mmbench.bash"
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_mmbench
		printf "%s\n" "${COMPREPLY[@]}"' _ "$SRC" "$MMB" "$@"
}
nothing_ran() { ! ls "$P".* 2> /dev/null || die "$1: a candidate ran as code"; }
grep -n 'compgen -W\|eval' "$SRC/tools/completion/mmbench.bash" | grep -v '^[0-9]*:#' &&
	die "mmbench.bash hands words to compgen -W or eval"

for words in "compare|" "compare|c" "compare --format lkp two|c" "plot|" "report|c" "run --name|"; do
	IFS='|' read -r pre cur <<< "$words"
	# shellcheck disable=SC2086
	comp $pre "$cur" > "$TMP/reply"
	nothing_ran "bash: mmbench $pre $cur<TAB>"
	# each candidate is one shell word meaning the label itself
	grep -q . "$TMP/reply" || die "bash: mmbench $pre $cur<TAB>: no candidate"
	while IFS= read -r w; do
		eval "set -- $w"
		[ $# = 1 ] || die "bash: candidate '$w' is $# words"
		case $1 in "$evil" | "two words") ;; *) die "bash: candidate '$w' means '$1'" ;; esac
	done < "$TMP/reply"
done
[ "$(comp compare t)" = 'two\ words' ] || die "bash: a label with a space: '$(comp compare t)'"
[ "$(comp run f)" = 'f$(touch pwned.3).yaml' ] || die "bash: file name '$(comp run f)'"
nothing_ran "bash: mmbench run f<TAB>"

# zsh, interactive, its completion system loaded: the word TAB puts on the line
command -v zsh > /dev/null || { echo "ok (zsh not installed: bash only)"; exit 0; }
zsh -f -c 'zmodload zsh/zpty' 2> /dev/null || { echo "ok (zsh has no zpty: bash only)"; exit 0; }
mkdir "$TMP/zhome"
# a key (^T) writes the line as completion left it to a file and clears it
# (not ^U: the tty's cooked mode would eat it before zle runs); the loop
# reads until zsh exits
HOME=$TMP/zhome zsh -f -c '
	zmodload zsh/zpty
	zpty z zsh -f -i
	zpty -w z "fpath=($1/tools/completion \$fpath); autoload -U compinit; compinit -u -D"
	zpty -w z "mmbench() { \"$2\" \"\$@\" }; compdef _mmbench mmbench; bindkey \"^I\" complete-word"
	zpty -w z "dump() { print -r -- \"\$BUFFER\" > $3; BUFFER= }; zle -N dump; bindkey \"^T\" dump"
	zpty -w -n z "mmbench compare c"$'"'"'\t\x14'"'"'
	zpty -w z "exit"
	while zpty -r z line; do :; done
	zpty -d z' _ "$SRC" "$MMB" "$TMP/zline" > "$TMP/zsh.out" 2>&1 || true
nothing_ran "zsh: mmbench compare c<TAB>"
[ -s "$TMP/zline" ] || { cat -v "$TMP/zsh.out"; die "zsh: no line recorded"; }
eval "set -- $(cat "$TMP/zline")"
[ $# = 3 ] && [ "$3" = "$evil" ] || die "zsh: TAB made the line '$(cat "$TMP/zline")'"
nothing_ran "zsh: the completed line read back"
echo ok
