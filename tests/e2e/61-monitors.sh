#!/bin/bash
# Monitor rows in comparisons (docs/monitors.md): two imported lkp matrices
# with proc-vmstat, meminfo, perf-stat and time stats.  compare --format lkp
# lists the changed ones after the KPI in lkp's order and layout (golden
# compare-monitors.lkp); rows under lkp's floors or unchanged are left out;
# every layout carries them; --monitors all|none; the headline and exit
# code never count them.  UPDATE=1 rewrites the golden.
. "$(dirname "$0")/../e2e-lib.sh"
FIX=$(cd "$(dirname "$0")/../fixtures" && pwd)
G=$FIX/golden/compare-monitors.lkp

"$MMB" -q import --name 6.8-base "$FIX/compare/vmstat-base.matrix.json" || die "import base"
"$MMB" -q import --name 6.8-thp "$FIX/compare/vmstat-new.matrix.json" || die "import new"
# the monitor stats went into monitors, not samples
[ "$(q "SELECT count(*) FROM monitors WHERE source = 'vmstat' AND key = 'pgfault'")" = 12 ] ||
	die "proc-vmstat.pgfault not imported as a monitor"
[ "$(q "SELECT count(*) FROM samples WHERE metric LIKE '%pgfault%'")" = 0 ] || die "pgfault as a sample"

"$MMB" compare --format lkp 6.8-base 6.8-thp > "$TMP/lkp" 2> "$TMP/err" || die "compare: $(cat "$TMP/err")"
if [ "${UPDATE:-}" = 1 ]; then
	cp "$TMP/lkp" "$G"
elif ! cmp -s "$TMP/lkp" "$G"; then
	diff -u "$G" "$TMP/lkp"
	die "compare --format lkp differs from golden/compare-monitors.lkp"
fi
# lkp's order: the KPI, then groups (the text before the first '.') by rows
# listed, fewest first, the testcase's own (pft.time.*) as none; by name within
names=$(awk '/^ .*  [a-z]/ && !/stddev|commit/ {print $NF}' "$TMP/lkp" | tr '\n' ' ')
[ "$names" = "pft.faults_per_sec_per_cpu pft.time.minor_page_faults meminfo.AnonHugePages perf-stat.page-faults proc-vmstat.numa_hit proc-vmstat.pgfault proc-vmstat.pgfree " ] ||
	die "rows or order: $names"
# under the floors (max <= 1000, meminfo < 5%, time.system_time < 10 s), unchanged, noise: out
for r in thp_fault_alloc MemFree system_time pgalloc_normal nr_dirtied; do
	! grep -q "$r" "$TMP/lkp" || die "$r listed"
done

# all: every row; none: the KPI alone, the note gone
"$MMB" compare --format lkp --monitors all 6.8-base 6.8-thp > "$TMP/all" || die "--monitors all"
[ "$(grep -cE '  (proc-vmstat|meminfo|perf-stat|pft\.time)\.' "$TMP/all")" = 11 ] || die "all: $(cat "$TMP/all")"
"$MMB" compare --format lkp --monitors none 6.8-base 6.8-thp > "$TMP/none" || die "--monitors none"
! grep -qE 'proc-vmstat|monitors:' "$TMP/none" || die "none lists monitors"
rc=0; out=$("$MMB" compare --monitors some 6.8-base 6.8-thp 2>&1) || rc=$?
[ $rc = 2 ] && echo "$out" | grep -qF -- "--monitors 'some': expected changed, all or none" ||
	die "bad --monitors: $rc $out"

# every layout lists them (the default text, a paste, counts them: --verbose
# lists them); the headline counts the KPI alone
"$MMB" compare 6.8-base 6.8-thp > "$TMP/text" || die "text"
! grep -q 'proc-vmstat.pgfault' "$TMP/text" || die "the default text lists the pgfault row"
grep -qx 'monitors: 6 rows changed, never in the verdict (--verbose lists them)' "$TMP/text" ||
	die "text does not count the monitor rows: $(cat "$TMP/text")"
"$MMB" compare --verbose 6.8-base 6.8-thp > "$TMP/text-v" || die "text --verbose"
grep -q '^pft proc-vmstat.pgfault' "$TMP/text-v" || die "text --verbose has no pgfault row"
grep -qx 'verdict: 1 regression, 0 improvements, 0 with no significant change' "$TMP/text" ||
	die "headline counts monitors: $(grep verdict "$TMP/text")"
"$MMB" compare --format mmtests 6.8-base 6.8-thp | grep -q '^Amean     proc-vmstat.pgfault ' ||
	die "mmtests has no pgfault row"
"$MMB" compare --format markdown 6.8-base 6.8-thp | grep -q '^pft, proc-vmstat.pgfault' ||
	die "markdown has no pgfault row"
"$MMB" compare --format csv 6.8-base 6.8-thp > "$TMP/csv" || die "csv"
[ "$(grep -c '^pft,,proc-vmstat.pgfault,' "$TMP/csv")" = 2 ] || die "csv has no pgfault rows"
# the column after mean says which rows are monitors, so a script can keep the KPIs alone
head -1 "$TMP/csv" | grep -q ',mean,monitor,' || die "csv header: $(head -1 "$TMP/csv")"
[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "monitor") m = i }
	NR > 1 && $m == 1 { print $3 }' "$TMP/csv" | sort -u | tr '\n' ' ')" = \
  "meminfo.AnonHugePages perf-stat.page-faults pft.time.minor_page_faults proc-vmstat.numa_hit proc-vmstat.pgfault proc-vmstat.pgfree " ] ||
	die "csv monitor column: $(awk -F, 'NR > 1 { print $3, $37 }' "$TMP/csv")"
[ "$(awk -F, 'NR > 1 && $37 == 0 { print $3 }' "$TMP/csv" | sort -u)" = faults_per_sec_per_cpu ] ||
	die "csv: the KPI row is not monitor 0"
"$MMB" compare --format json 6.8-base 6.8-thp > "$TMP/json"
python3 - "$TMP/json" <<'PY' || die "json"
import json, sys
d = json.load(open(sys.argv[1]))
# every row says whether it is a monitor: true or false, never absent
assert all(isinstance(r["monitor"], bool) for r in d["rows"]), d["rows"]
assert [r["metric"] for r in d["rows"] if not r["monitor"]] == ["faults_per_sec_per_cpu"]
mon = [r["metric"] for r in d["rows"] if r["monitor"]]
assert mon == ["pft.time.minor_page_faults", "meminfo.AnonHugePages", "perf-stat.page-faults",
               "proc-vmstat.numa_hit", "proc-vmstat.pgfault", "proc-vmstat.pgfree"], mon
assert d["counts"]["regression"] == 1, d["counts"]
# the KPI is a Benjamini-Hochberg family of its own; the tested monitor rows
# (the 6 listed and nr_dirtied, over the floors, not significant) are another
assert d["comparisons_adjusted"] == 1, d["comparisons_adjusted"]
assert d["monitor_comparisons_adjusted"] == 7, d["monitor_comparisons_adjusted"]
PY
# the report lists them after the significant changes, never among them
"$MMB" -q report --no-plots --out "$TMP/rep" 6.8-base 6.8-thp > /dev/null || die "report"
grep -qx -- '- pft proc-vmstat.pgfault: 6.8-thp -47.1% (16565.2 -> 8761.33, BH q = 2.7e-19)' \
	"$TMP/rep/report.txt" || die "report: no pgfault line: $(cat "$TMP/rep/report.txt")"
! grep -q 'regression: .*proc-vmstat' "$TMP/rep/report.txt" || die "report counts a monitor"
grep -q '^1 regression, 0 improvements' "$TMP/rep/report.txt" || die "report headline"
# report --monitors: compare's option and semantics
"$MMB" -q report --no-plots --monitors none --out "$TMP/rep-none" 6.8-base 6.8-thp > /dev/null ||
	die "report --monitors none"
! grep -qE 'proc-vmstat|meminfo\.|Monitors that changed' "$TMP/rep-none/report.txt" ||
	die "report --monitors none lists monitors"
grep -q '^1 regression, 0 improvements' "$TMP/rep-none/report.txt" || die "report none: headline"
"$MMB" -q report --no-plots --monitors all --out "$TMP/rep-all" 6.8-base 6.8-thp > /dev/null ||
	die "report --monitors all"
# all 11 monitor rows in the Monitors section (unchanged ones too), none in the
# comparison tables (issue 28 item 3), the headline still the KPI's
[ "$(sed -n '/^Monitors (not in/,/^$/p' "$TMP/rep-all/report.txt" | grep -c '^- pft ')" = 11 ] ||
	die "report --monitors all: $(cat "$TMP/rep-all/report.txt")"
! grep -qE '^Amean +(proc-vmstat|meminfo|perf-stat|pft\.time)\.' "$TMP/rep-all/report.txt" ||
	die "report --monitors all: monitor rows in the comparison tables"
grep -q 'proc-vmstat.nr_dirtied' "$TMP/rep-all/report.txt" || die "report all: no unchanged row"
! grep -q 'proc-vmstat.nr_dirtied' "$TMP/rep/report.txt" || die "report changed: an unchanged row"
grep -q '^1 regression, 0 improvements' "$TMP/rep-all/report.txt" || die "report all: headline"
rc=0; out=$("$MMB" report --no-plots --monitors some --out "$TMP/rep-bad" 6.8-base 6.8-thp 2>&1) || rc=$?
[ $rc = 2 ] && echo "$out" | grep -qF -- "--monitors 'some': expected changed, all or none" ||
	die "report: bad --monitors: $rc $out"
[ ! -e "$TMP/rep-bad" ] || die "report wrote a bundle after a bad --monitors"

# ab lists them too: its compare step, reached without a guest by resuming a
# series whose one round per kernel is already recorded (the imported runs,
# made to look like ab's: same experiment text, accelerator tcg; fake cached kernels)
export MMBENCH_CACHE=$TMP/cache
for l in 6.8-base 6.8-thp; do
	mkdir -p "$TMP/cache/k-$l" "$TMP/cache/labels"
	printf 'key=%s\nrelease=6.8.0\n' "$l" > "$TMP/cache/k-$l/meta"
	ln -s "../k-$l" "$TMP/cache/labels/$l"
done
printf 'experiment: pft\niterations: 1\nworkloads:\n  - name: pft\n' > "$TMP/ab.yaml"
q "UPDATE runs SET config_text = CAST(readfile('$TMP/ab.yaml') AS TEXT), accel = 'tcg', status = 'complete'"
"$MMB" ab --base-name 6.8-base --new-name 6.8-thp --accel tcg --rounds 1 --no-plots \
	--format lkp "$TMP/ab.yaml" > "$TMP/ab" 2> "$TMP/ab.err" || die "ab: $(cat "$TMP/ab.err")"
grep -q '1 of 1 rounds already recorded' "$TMP/ab.err" || die "ab booted a guest: $(cat "$TMP/ab.err")"
# the same rows as compare --format lkp, the golden's; the runs are now a
# VM's (accel tcg), so the notes also say the clock they were timed on
grep -q '^clock: real (host time' "$TMP/ab" || die "ab's comparison of tcg runs does not state the clock"
# and the guest's arch (VM runs recorded before vm.arch were x86_64's)
grep -q "^arch: x86_64 (the guest's)" "$TMP/ab" || die "ab's comparison of tcg runs does not state the arch"
grep -v -e '^clock: ' -e '^arch: ' "$TMP/ab" > "$TMP/ab.noclock"
cmp -s "$TMP/ab.noclock" "$G" || { diff -u "$G" "$TMP/ab.noclock"; die "ab's comparison differs from compare's"; }
echo ok
