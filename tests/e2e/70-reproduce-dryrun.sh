#!/bin/bash
# e2e: `mmbench reproduce --dry-run` on a follow-up of the aim9 brk_test
# thread (300 s, performance governor, fc21959f74 / cacded5e42 and the fix
# 9cecc5dc89 as the third column), on a report from stdin, --fix on the
# command line; garbage, unsupported and broken reports give one clear error
# and exit 2.
. "$(dirname "$0")/../e2e-lib.sh"
FIX=$(cd "$(dirname "$0")/../fixtures/reports" && pwd)
SEED=$FIX/aim9-followup.txt
[ -x "$MMB" ] || die "$MMB not built"

# the follow-up: parsed, mapped, commits listed, nothing run
"$MMB" reproduce --dry-run "$SEED" >"$TMP/out" 2>"$TMP/err" || die "dry-run failed: $(cat "$TMP/err")"
grep -q '^testcase: *aim9$' "$TMP/out" || die "testcase not aim9"
grep -q '^  - name: aim9$' "$TMP/out" || die "workload is not aim9"
grep -q '^      test: brk_test$' "$TMP/out" || die "test is not brk_test"
grep -q '^      testtime: 300s$' "$TMP/out" || die "testtime is not 300s"
grep -q '^iterations: 6$' "$TMP/out" || die "not 6 runs per commit"
# the governor is applied where cpufreq exists, else kept as a comment + note
if [ -e /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor ]; then
	grep -q '^  governor: performance$' "$TMP/out" || die "governor not in environment"
else
	grep -q '^#   governor: performance' "$TMP/out" || die "skipped governor not shown"
	grep -q 'cpufreq_governor performance; this machine has no cpufreq' "$TMP/out" ||
		die "governor skip not said"
fi
grep -q '^  base     fc21959f74 ("mm: abstract vma_expand() to use vma_merge_struct")$' "$TMP/out" ||
	die "base commit"
grep -q '^  suspect  cacded5e42 ("mm: avoid using vma_merge() for new VMAs")$' "$TMP/out" ||
	die "suspect commit"
grep -q '^  fix      9cecc5dc89 (.*)  \[the report.s third column\]$' "$TMP/out" || die "fix column"
# all five tables of the follow-up, the original machine's row
[ "$(grep -c '^table [0-9]' "$TMP/out")" = 5 ] || die "expected 5 tables"
grep -q '1322908 *-5.0% *1256536 *-1.6% *1301387 *aim9.brk_test.ops_per_sec' "$TMP/out" ||
	die "original machine's row"
[ -s "$TMP/err" ] && die "unexpected stderr: $(cat "$TMP/err")"
# the same mail collapsed onto one line, as some archives keep it
tr -s '[:space:]' ' ' <"$SEED" >"$TMP/collapsed"
"$MMB" reproduce --dry-run "$TMP/collapsed" >"$TMP/outc" 2>"$TMP/err" ||
	die "dry-run of the collapsed mail failed: $(cat "$TMP/err")"
[ "$(grep -c '^table [0-9]' "$TMP/outc")" = 5 ] || die "collapsed: expected 5 tables"
grep -q '1322908 *-5.0% *1256536 *-1.6% *1301387 *aim9.brk_test.ops_per_sec' "$TMP/outc" ||
	die "collapsed: original machine's row"

# the report on stdin, a fix patch named on the command line, --runs
"$MMB" reproduce --dry-run --runs 8 --fix /tmp/fix.patch - <"$FIX/latin1.txt" >"$TMP/out2" ||
	die "dry-run from stdin failed"
grep -q '^iterations: 8$' "$TMP/out2" || die "--runs 8 not used"
grep -q '^  fix      cacded5e42 + /tmp/fix.patch$' "$TMP/out2" || die "--fix not listed"
grep -q '^materials: *https://download.01.org/0day-ci/archive/20240930/' "$TMP/out2" ||
	die "materials URL"
grep -q -- '-5.0% regression' "$TMP/out2" || die "headline"

# will-it-scale report: CPU-relative nr_task shown as the count here
"$MMB" reproduce -n "$FIX/wis-report.txt" >"$TMP/out3" || die "wis dry-run failed"
grep -q '^  - name: will-it-scale$' "$TMP/out3" || die "wis workload"
grep -q "^      nr_task: 100%    # 100% of $(nproc) CPUs here = $(nproc)\$" "$TMP/out3" || die "nr_task scaling"

# errors: one line, exit 2
expect_err() {	# file want...
	local f=$1 rc
	shift
	set +e
	"$MMB" reproduce --dry-run "$f" >"$TMP/o" 2>"$TMP/e"
	rc=$?
	set -e
	[ $rc = 2 ] || die "$f: exit $rc, want 2 ($(cat "$TMP/e"))"
	[ "$(wc -l <"$TMP/e")" = 1 ] || die "$f: want one error line, got: $(cat "$TMP/e")"
	for w in "$@"; do
		grep -qF -- "$w" "$TMP/e" || die "$f: error lacks '$w': $(cat "$TMP/e")"
	done
	[ -s "$TMP/o" ] && die "$f: printed to stdout on error"
	return 0
}
head -c 4096 /bin/ls >"$TMP/binary"
: >"$TMP/empty"
expect_err "$TMP/binary" "binary data (NUL byte"
expect_err "$TMP/empty" "empty report"
expect_err "$FIX/normal-mail.txt" "not an LKP/0-day report"
expect_err "$FIX/unsupported.txt" "not supported: unixbench/fsdisk" "aim9/brk_test"
expect_err "$FIX/missing-commit-list.txt" "missing the 'commit:' list"
expect_err "$FIX/missing-table.txt" "missing comparison table"
expect_err "$TMP/nonexistent" "cannot read a 0-day report: No such file"
set +e
"$MMB" reproduce --dry-run >/dev/null 2>&1; rc=$?
set -e
[ $rc = 2 ] || die "no REPORT: exit $rc, want 2"
set +e
"$MMB" reproduce --runs 0 "$SEED" >/dev/null 2>&1; rc=$?
set -e
[ $rc = 2 ] || die "--runs 0: exit $rc, want 2"
echo "ok"
