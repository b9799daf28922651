#!/bin/bash
# e2e: `mmbench reproduce` without --tree on the running kernel.  A synthetic
# report names two commits and aim9 brk_test with a 1 s testtime; --name says
# which commit is running.  The first run records under the base label and
# says what is missing, the second completes the comparison and prints the
# 0-day table (ours and the report's row) and the verdict line.
. "$(dirname "$0")/../e2e-lib.sh"
[ -x "$MMB" ] || die "$MMB not built"
[ -f "${MMBENCH_BUILD:-build}/workloads/aim9.so" ] || die "aim9 plugin not built"
export MMBENCH_STATE=${MMBENCH_STATE:-$TMP/state}
command -v sqlite3 >/dev/null || skip "sqlite3 CLI not installed"

aim9_report "$TMP/report.txt" </dev/null

"$MMB" -q reproduce --runs 2 --name aaaaaaaaaa --db "$MMBENCH_DB" "$TMP/report.txt" >"$TMP/o1" 2>"$TMP/e1" ||
	die "base run failed: $(cat "$TMP/e1")"
grep -q "recording under label 'aaaaaaaaaa'" "$TMP/o1" || die "base label not said"
grep -q 'column bbbbbbbbbb: nothing recorded yet' "$TMP/o1" || die "missing suspect not said"
[ "$(q "select count(*) from samples s join runs r on s.run_id = r.id join kernels k on r.kernel_id = k.id
       where k.label = 'aaaaaaaaaa' and s.workload = 'aim9' and s.metric = 'brk_test.ops_per_sec' and s.value > 0")" = 2 ] ||
	die "base samples not recorded"

# the report on stdin this time
"$MMB" -q reproduce --runs 2 --name bbbbbbbbbb0123 --db "$MMBENCH_DB" - <"$TMP/report.txt" >"$TMP/o2" 2>"$TMP/e2" ||
	die "suspect run failed: $(cat "$TMP/e2")"
grep -q '^      aaaaaaaaaa                  bbbbbbbbbb $' "$TMP/o2" || die "sha header"
grep -Eq '^ +[0-9]+( ±[ 0-9]{3}%| {6}) +[+-][0-9]+\.[0-9]% +[0-9]+( ±[ 0-9]{3}%| {6})  aim9.brk_test.ops_per_sec  \(here, n=2/2\)$' "$TMP/o2" ||
	die "our row: $(cat "$TMP/o2")"
grep -q '^   1322908            -5.0%    1256536        aim9.brk_test.ops_per_sec  (report, vm-2)$' "$TMP/o2" ||
	die "report row"
# two values a side can leave the ratio's interval unbounded: [CI -100.0, +inf]
grep -Eq '^suspect bbbbbbbbbb: report: -5.0%, here: [+-][0-9.]+% \[CI [+-][0-9.]+, [+-]([0-9.]+|inf)\], p=[0-9.e+-]+: (reproduced|not reproduced)' "$TMP/o2" ||
	die "verdict line: $(cat "$TMP/o2")"

# a --name that is none of the commits; the running kernel not in the report
set +e
"$MMB" reproduce --name cccccccccc --db "$MMBENCH_DB" "$TMP/report.txt" >/dev/null 2>"$TMP/e3"; rc=$?
set -e
[ $rc = 2 ] || die "--name of no commit: exit $rc"
grep -q 'is none of the report.s commits (aaaaaaaaaa, bbbbbbbbbb)' "$TMP/e3" || die "$(cat "$TMP/e3")"
set +e
"$MMB" reproduce --db "$MMBENCH_DB" "$TMP/report.txt" >/dev/null 2>"$TMP/e4"; rc=$?
set -e
[ $rc = 2 ] || die "running kernel not in the report: exit $rc"
grep -q "the running kernel ($(uname -r)) is none of the report's commits" "$TMP/e4" || die "$(cat "$TMP/e4")"
echo ok
