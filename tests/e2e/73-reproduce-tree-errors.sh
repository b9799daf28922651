#!/bin/bash
# e2e: `mmbench reproduce --tree` refuses, before building anything, a report
# whose commits are not in the tree and a suspect that does not descend from
# the base (exit 2, one message naming the commit); --dry-run --tree shows the
# interleaved plan (boots per kernel, iterations per boot).
. "$(dirname "$0")/../e2e-lib.sh"
[ -x "$MMB" ] || die "$MMB not built"
command -v git >/dev/null || skip "git not installed"
export MMBENCH_STATE=${MMBENCH_STATE:-$TMP/state}
export MMBENCH_CACHE=$TMP/cache

T=$TMP/tree
git init -q -b master "$T"
g() { git -C "$T" -c user.name=t -c user.email=t@localhost "$@"; }
echo a >"$T/f"; g add f; g commit -q -m base
base=$(g rev-parse HEAD)
echo b >"$T/f"; g commit -q -am suspect
suspect=$(g rev-parse HEAD)
g checkout -q -b side "$base"
echo c >"$T/g"; g add g; g commit -q -m side
side=$(g rev-parse HEAD)

report() {	# base suspect
	cat <<R
kernel test robot noticed a -5.0% regression of aim9.brk_test.ops_per_sec on:
testcase: aim9
parameters:

	testtime: 1s
	test: brk_test

=========================================================================================
compiler/kconfig/rootfs/tbox_group/test/testcase/testtime:
  gcc-12/x86_64-rhel-8.3/debian-12.cgz/vm-2/brk_test/aim9/1s

commit: 
  ${1:0:10} ("base")
  ${2:0:10} ("suspect")

${1:0:16} ${2:0:27} 
---------------- --------------------------- 
   1322908            -5.0%    1256536        aim9.brk_test.ops_per_sec
R
}

expect2() {	# report-file want
	local rc
	set +e
	"$MMB" reproduce --tree "$T" "$1" >"$TMP/o" 2>"$TMP/e"
	rc=$?
	set -e
	[ $rc = 2 ] || die "exit $rc, want 2: $(cat "$TMP/e")"
	grep -qF -- "$2" "$TMP/e" || die "error lacks '$2': $(cat "$TMP/e")"
	[ "$(wc -l <"$TMP/e")" = 1 ] || die "want one error line: $(cat "$TMP/e")"
}
report 0123456789abcdef0123 "$suspect" >"$TMP/r1"
expect2 "$TMP/r1" "the report's base commit 0123456789 is not in $T"
report "$base" fedcba9876543210fedc >"$TMP/r2"
expect2 "$TMP/r2" "the report's suspect commit fedcba9876 is not in $T"
report "$suspect" "$side" >"$TMP/r3"
expect2 "$TMP/r3" "the suspect ${side:0:10} does not descend from the base ${suspect:0:10}"
[ -d "$MMBENCH_CACHE/kernels" ] && die "something was built"

# the plan of a good report
report "$base" "$suspect" >"$TMP/r4"
"$MMB" reproduce -n --tree "$T" --rounds 2 --runs 6 "$TMP/r4" >"$TMP/o4" || die "dry-run --tree failed"
grep -q '^iterations: 3             # x 2 boots per kernel = 6 runs$' "$TMP/o4" || die "plan: $(cat "$TMP/o4")"
grep -q "^  suspect  ${suspect:0:10} (\"suspect\")$" "$TMP/o4" || die "suspect not listed"
set +e
"$MMB" reproduce --tree "$T" --rounds 1 "$TMP/r4" >/dev/null 2>&1; rc=$?
set -e
[ $rc = 2 ] || die "--rounds 1: exit $rc, want 2"
echo ok
