#!/bin/bash
# mmbench report on a DB imported from fixed samples, with recorded
# environments that differ, a failed and an interrupted run: every file of
# the bundle, report.txt within 80 columns with the differences flagged and
# the runs listed, both table layouts, markdown with the plots, html with
# every plot inlined, and no partial bundle when gnuplot is missing.
. "$(dirname "$0")/../e2e-lib.sh"
command -v gnuplot >/dev/null || skip "gnuplot is not installed (apt-get install gnuplot-nox)"
command -v sqlite3 >/dev/null || skip "sqlite3 (CLI) is needed to set up the runs"
FIX=$(cd "$(dirname "$0")/../fixtures/plot" && pwd)

"$MMB" import --name v6.8-rc1 "$FIX/base.csv" >/dev/null			# run 1
"$MMB" import --name fork-batching "$FIX/new.csv" >/dev/null		# run 2
"$MMB" import --name fork-batching-v2 "$FIX/new2.csv" >/dev/null		# run 3
"$MMB" import --name fork-batching "$FIX/base.csv" >/dev/null		# run 4: will be 'failed'
"$MMB" import --name fork-batching-v2 "$FIX/new2.csv" >/dev/null		# run 5: 'interrupted'
# what a real run records: kernels, command lines, THP and governor
q "UPDATE runs SET status = 'failed' WHERE id = 4;
   UPDATE runs SET status = 'interrupted' WHERE id = 5;
   UPDATE runs SET cmdline = 'BOOT_IMAGE=/vmlinuz ro quiet';
   UPDATE runs SET cmdline = 'BOOT_IMAGE=/vmlinuz ro quiet mitigations=off' WHERE id = 2;
   UPDATE kernels SET release = '6.8.0-rc1', base_commit = 'd162e170f1181b4305494843e1976584ddf2b72e',
     config_hash = 'abcdef0123456789', compiler = 'gcc 12.2.0' WHERE label = 'v6.8-rc1';
   UPDATE kernels SET release = '6.8.0-rc1+', base_commit = 'd162e170f1181b4305494843e1976584ddf2b72e',
     patches = '[{\"subject\":\"mm/memory: optimize fork() with PTE-mapped THP\",\"hash\":\"1\"}]'
     WHERE label = 'fork-batching';
   INSERT INTO run_env VALUES (1, 'thp.enabled', 'never', 'always'), (2, 'thp.enabled', 'always', 'always'),
     (3, 'thp.enabled', 'never', 'always'), (5, 'thp.enabled', 'never', 'always'),
     (1, 'cpufreq.governor', 'performance', 'schedutil'), (2, 'cpufreq.governor', 'performance', 'schedutil'),
     (3, 'cpufreq.governor', 'performance', 'schedutil'), (5, 'cpufreq.governor', 'performance', 'schedutil');"

R=$TMP/review
"$MMB" report --out "$R" v6.8-rc1 fork-batching fork-batching-v2 > "$TMP/list" 2> "$TMP/err" ||
	{ cat "$TMP/err"; die "report failed"; }
for f in report.txt report.md report.html; do
	[ -s "$R/$f" ] || die "missing $f"
	grep -qx "$R/$f" "$TMP/list" || die "$f not listed"
done
npng=$(ls "$R"/*.png | wc -l)
[ "$npng" = 13 ] || die "expected 13 plots in the bundle, got $npng"
for png in "$R"/*.png; do
	n=${png%.png}
	[ -s "$n.gp" ] && [ -s "$n.dat" ] || die "$png without its .gp/.dat"
	grep -qx "$png" "$TMP/list" || die "$png not listed"
done
[ -z "$(ls -A "$R" | grep '^\.')" ] || die "temporary files left: $(ls -A "$R")"

# ---- report.txt ----
T=$R/report.txt
long=$(LC_ALL=C awk 'length > 80 { print FNR": "$0 }' "$T")
[ -z "$long" ] || die "report.txt has lines over 80 columns:
$long"
grep -q '^mmbench report: v6.8-rc1 vs fork-batching, fork-batching-v2$' "$T" || die "title"
grep -q '^Machine$' "$T" || die "machine section"
grep -q 'release   6.8.0-rc1$' "$T" || die "kernel release"
grep -q 'commit    d162e170f118 + 1 patch$' "$T" || die "kernel commit"
grep -q 'config    abcdef012345$' "$T" || die "config hash"
grep -q '^! thp.enabled$' "$T" || die "THP difference not flagged"
grep -q '^!   fork-batching (run 2): always$' "$T" || die "THP value of run 2"
grep -q '^!   v6.8-rc1 (run 1): never (was always)$' "$T" || die "THP value of run 1 with original"
grep -q '^! kernel cmdline$' "$T" || die "cmdline difference not flagged"
grep -q 'mitigations=off' "$T" || die "the differing cmdline"
grep -q '^  cpufreq.governor  *performance (was schedutil)$' "$T" || die "identical governor listed, not flagged"
! grep -q '^! cpufreq.governor' "$T" || die "identical governor flagged"
grep -q 'run 4 of fork-batching: failed' "$T" || die "failed run not listed"
grep -q 'run 5 of fork-batching-v2: interrupted' "$T" || die "interrupted run not listed"
grep -q '^- regression: aim9 brk_test.ops_per_sec \[test=brk_test\], fork-batching -5.26%$' "$T" ||
	die "brk_test regression in the verdict list"
grep -A1 'regression: aim9 brk_test.ops_per_sec \[test=brk_test\], fork-batching -5' "$T" |
	grep -q '95% CI \[.*\], p = .*, BH q = ' || die "verdict with CI and p"
grep -q '^Hmean     faults/cpu-48' "$T" || die "mmtests layout tables"
grep -q -- '-- v6.8-rc1 vs fork-batching-v2 --' "$T" || die "three kernels: one table per NEW kernel"
grep -q 'pft-faults_cpu-scaling.png' "$T" || die "plots listed"
# the failed run (run 4: baseline samples under the new label) is not pooled
grep -q '^Hmean     brk_test.ops_per_sec .*\*  -5.2[0-9]%\*' "$T" || die "failed run pooled?"

"$MMB" report --out "$TMP/lkp" --format lkp --no-plots v6.8-rc1 fork-batching >/dev/null 2>&1 ||
	die "report --format lkp"
long=$(LC_ALL=C awk 'length > 80' "$TMP/lkp/report.txt")
[ -z "$long" ] || die "lkp report.txt over 80 columns: $long"
grep -q '%stddev     %change         %stddev' "$TMP/lkp/report.txt" || die "0-day layout"
[ -z "$(ls "$TMP/lkp"/*.png 2>/dev/null)" ] || die "--no-plots drew plots"

# ---- report.md ----
M=$R/report.md
for png in "$R"/*.png; do
	grep -qF "]($(basename "$png"))" "$M" || die "report.md does not embed $(basename "$png")"
done
grep -q '^| kernel' "$M" || die "markdown tables"
grep -q 'run 4 of fork-batching: failed' "$M" || die "failed run in report.md"

# ---- report.html: self-contained, every plot inlined byte for byte ----
H=$R/report.html
[ "$(grep -o 'data-file="[^"]*"' "$H" | wc -l)" = "$npng" ] || die "report.html should inline $npng plots"
! grep -q 'src="[^d]' "$H" || die "report.html refers to an external file"
grep -o 'data-file="pte-mapped-folio-seconds-box.png" src="data:image/png;base64,[^"]*"' "$H" |
	sed 's/.*base64,//; s/"$//' | base64 -d > "$TMP/img.png"
cmp -s "$TMP/img.png" "$R/pte-mapped-folio-seconds-box.png" || die "inlined picture differs from the file"

# ---- gnuplot missing: one error, no partial bundle; --no-plots needs no gnuplot ----
set +e
MMBENCH_GNUPLOT=$TMP/none/gnuplot "$MMB" report --out "$TMP/m" v6.8-rc1 fork-batching > "$TMP/out" 2> "$TMP/err"
rc=$?
set -e
[ $rc = 1 ] || die "gnuplot missing: exit $rc, expected 1"
[ "$(grep -c '^error:' "$TMP/err")" = 1 ] || { cat "$TMP/err"; die "one error expected"; }
[ -z "$(ls -A "$TMP/m" 2>/dev/null)" ] || die "partial bundle left: $(ls -A "$TMP/m")"
MMBENCH_GNUPLOT=$TMP/none/gnuplot "$MMB" report --out "$TMP/np" --no-plots v6.8-rc1 fork-batching >/dev/null 2>&1 ||
	die "--no-plots should not need gnuplot"
! grep -q '<img' "$TMP/np/report.html" || die "--no-plots html has images"

# ---- usage errors ----
set +e
"$MMB" report v6.8-rc1 fork-batching 2> "$TMP/err"; rc=$?
[ $rc = 2 ] && grep -q -- '--out' "$TMP/err" || die "missing --out: exit $rc"
"$MMB" report --out "$TMP/x" --format html v6.8-rc1 fork-batching 2> "$TMP/err"; rc=$?
[ $rc = 2 ] || die "bad --format: exit $rc"
"$MMB" report --out "$TMP/x" v6.8-rc1 nope 2> "$TMP/err"; rc=$?
[ $rc = 2 ] && grep -q nope "$TMP/err" || die "unknown label: exit $rc"
set -e
[ -n "${KEEP:-}" ] && cp -r "$R" "$KEEP"
echo ok
