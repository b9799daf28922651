#!/bin/bash
# ab --new REF without building a kernel (the real two-ref A/B is in
# `make check-kernel`):
#  - argument errors exit 2 with a message naming the argument
#  - --base and --new one commit with no --patch: exit 2, nothing built
#  - default labels are `git describe` of each ref (tags, else the short
#    commit), --patch on top of --new takes the series' subject, and
#    --base-name/--new-name win; the tree is not a kernel, so the build
#    after the labels fails (exit 1 with the log path) and the user's tree
#    is untouched
set -u
MM="$MMBENCH_BUILD/mmbench"
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export MMBENCH_CACHE="$work/cache" MMBENCH_DB="$work/db.sqlite"
fail() { echo "FAIL: $*"; exit 1; }
expect() {	# expect RC PATTERN -- command...
	local want=$1 pat=$2 rc=0
	shift 3
	"$@" >"$work/out" 2>"$work/err" || rc=$?
	[ "$rc" = "$want" ] || { cat "$work/err"; fail "$*: exit $rc, expected $want"; }
	grep -q -- "$pat" "$work/err" || { cat "$work/err"; fail "$*: no '$pat' in the message"; }
}
command -v git >/dev/null || { echo "git not installed"; exit 77; }
y="$top/configs/quick.yaml"

# a small git tree standing in for a kernel: v1.0, then v1.1, then one untagged commit
t="$work/tree"
mkdir -p "$t/mm"
printf 'line one\n' >"$t/mm/mmap.c"
git -C "$t" init -q -b main
gc() { git -C "$t" -c user.name=t -c user.email=t@t "$@"; }
gc add -A
gc commit -q -m base
gc tag v1.0
echo "line two" >>"$t/mm/mmap.c"
gc commit -q -am "mm: line two"
gc tag v1.1
echo "line three" >>"$t/mm/mmap.c"
gc commit -q -am "mm: line three"
head=$(git -C "$t" rev-parse HEAD)

expect 2 "--new REF needs --tree DIR" -- "$MM" ab --new v1.1 --base-name a --new-name b "$y"
expect 2 "ab: --new -x: a git ref cannot start with '-'" -- "$MM" ab --tree "$t" --new=-x "$y"
expect 2 "ab: --new: an empty git ref" -- "$MM" ab --tree "$t" --new "" "$y"
expect 2 "no --patch or --new given" -- "$MM" ab --tree "$t" --base v1.0 "$y"
expect 2 "--ref nosuch: not a commit" -- "$MM" ab --tree "$t" --base v1.0 --new nosuch "$y"
expect 2 "are one commit" -- "$MM" ab --tree "$t" --base v1.0 --new v1.0~0 "$y"
grep -q "nothing to compare" "$work/err" || fail "one commit: no 'nothing to compare'"
[ -d "$MMBENCH_CACHE/kernels" ] && [ -n "$(ls "$MMBENCH_CACHE/kernels")" ] &&
	fail "a kernel was built for an argument error"

# labels: git describe of each ref; the build then fails (not a kernel)
expect 1 "ab: A = v1.0 (v1.0), B = v1.1 (v1.1 +0 patch arguments)" -- \
	"$MM" ab --tree "$t" --base v1.0 --new v1.1 "$y"
grep -q "log: " "$work/err" || fail "the failed build does not give its log"
expect 1 "ab: A = v1.0 (v1.0), B = v1.1-1-g${head:0:12} (main +0 patch" -- \
	"$MM" ab --tree "$t" --base v1.0 --new main "$y"
expect 1 "ab: A = old (v1.0), B = new (v1.1" -- \
	"$MM" ab --tree "$t" --base v1.0 --new v1.1 --base-name old --new-name new "$y"
# --patch on top of --new: the series' subject labels the new kernel
git -C "$t" checkout -q -b topic
echo "line four" >>"$t/mm/mmap.c"
gc commit -q -am "mm: line four"
git -C "$t" checkout -q main
expect 1 "B = mm-line-four (v1.1 +1 patch argument)" -- \
	"$MM" ab --tree "$t" --base v1.0 --new v1.1 --patch main..topic "$y"
[ "$(git -C "$t" rev-parse HEAD)" = "$head" ] || fail "the user's HEAD moved"
[ "$(git -C "$t" symbolic-ref HEAD)" = refs/heads/main ] || fail "the user's branch changed"
[ -z "$(git -C "$t" status --porcelain)" ] || fail "the user's tree was touched"
echo "ok"
