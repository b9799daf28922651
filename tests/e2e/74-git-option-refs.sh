#!/bin/bash
# Kernel refs and patch ranges reach git as arguments (never a shell), so a
# ref starting with '-' would be read by git as an option:
# "--upload-pack=CMD" runs CMD on a fetch, format-patch's "--output=FILE"
# writes FILE.  `kernel build --ref`, `ab --base` and a `--patch A..B`
# range that starts with '-' are refused (exit 2, the message names the
# argument), and git never sees them: a git wrapper first on PATH logs
# every argv.  The refs git is given are preceded by --end-of-options.
. "$(dirname "$0")/../e2e-lib.sh"
command -v git > /dev/null || skip "git not installed"
top=$(cd "$(dirname "$0")/../.." && pwd)
export MMBENCH_CACHE=$TMP/cache

T=$TMP/tree
git init -q -b main "$T"
g() { git -C "$T" -c user.name=t -c user.email=t@localhost "$@"; }
echo a > "$T/f"; g add f; g commit -q -m base
echo b > "$T/f"; g commit -q -am "mm: change"

# every git mmbench runs, logged one argv per line
real=$(command -v git)
mkdir "$TMP/bin"
printf '#!/bin/sh\nprintf "%%s|" "$@" >> "%s"\necho >> "%s"\nexec "%s" "$@"\n' \
	"$TMP/git.log" "$TMP/git.log" "$real" > "$TMP/bin/git"
chmod +x "$TMP/bin/git"
export PATH=$TMP/bin:$PATH
: > "$TMP/git.log"

evil="--upload-pack=touch $TMP/pwned"
expect() {	# expect PATTERN -- command...
	local pat=$1 rc=0
	shift 2
	"$@" > "$TMP/out" 2> "$TMP/err" || rc=$?
	cat "$TMP/err"
	[ "$rc" = 2 ] || die "$*: exit $rc, expected 2"
	grep -qF -- "$pat" "$TMP/err" || die "$*: no '$pat' in the message"
}
why="a git ref cannot start with '-' (git would read it as an option)"
# given separately, an option-like value is a forgotten value (e2e/90); as --opt=VALUE it
# reaches the ref check
nv="option --ref needs a value ('$evil' is an option"
expect "$nv" -- "$MMB" kernel build --tree "$T" --ref "$evil" --name x
expect "--ref $evil: $why" -- "$MMB" kernel build --tree "$T" "--ref=$evil" --name x
expect "--ref -HEAD: $why" -- "$MMB" kernel build --tree "$T" --ref=-HEAD --name x
expect "option --ref needs a value ('-HEAD' is an option" -- \
	"$MMB" kernel build --tree "$T" --ref -HEAD --name x
expect "ab: --base $evil: $why" -- "$MMB" ab --tree "$T" "--base=$evil" --patch HEAD~1..HEAD \
	"$top/configs/quick.yaml"
# a range: format-patch --output=FILE would write FILE
expect "--patch --output=$TMP/pwned..HEAD: $why" -- \
	"$MMB" kernel build --tree "$T" --ref HEAD~1 "--patch=--output=$TMP/pwned..HEAD" --name x
expect "ab: --patch --output=$TMP/pwned..HEAD: $why" -- \
	"$MMB" ab --tree "$T" --base HEAD~1 --base-name a --new-name b \
	"--patch=--output=$TMP/pwned..HEAD" "$top/configs/quick.yaml"

[ ! -e "$TMP/pwned" ] || die "a ref was run as a git option"
! grep -q -- "upload-pack\|--output\|-HEAD" "$TMP/git.log" || {
	cat "$TMP/git.log"
	die "git was run with a ref that starts with '-'"
}
[ ! -s "$TMP/git.log" ] || { cat "$TMP/git.log"; die "git ran before the refusals"; }

# good refs reach git after --end-of-options (the build then fails: this
# tree is no kernel, or the kernel config is not found from this build)
set +e
"$MMB" ab --tree "$T" --base HEAD~1 --patch HEAD~1..HEAD "$top/configs/quick.yaml" \
	> "$TMP/out" 2> "$TMP/err"
set -e
grep -q -- "rev-parse|--verify|--quiet|--end-of-options|HEAD~1^{commit}|" "$TMP/git.log" ||
	{ cat "$TMP/err" "$TMP/git.log"; die "rev-parse without --end-of-options"; }
grep -q -- "format-patch|--stdout|--no-signature|--end-of-options|HEAD~1..HEAD|--|" "$TMP/git.log" ||
	{ cat "$TMP/err" "$TMP/git.log"; die "format-patch without --end-of-options"; }
echo "refused; git ran $(grep -c . "$TMP/git.log") times, never with an option-like ref"
