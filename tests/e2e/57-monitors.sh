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
# lkp's order: the KPI, then groups by rows listed (fewest first), by name within
names=$(awk '/^ .*  [a-z]/ && !/stddev|commit/ {print $NF}' "$TMP/lkp" | tr '\n' ' ')
[ "$names" = "pft.faults_per_sec_per_cpu meminfo.AnonHugePages perf-stat.page-faults pft.time.minor_page_faults proc-vmstat.numa_hit proc-vmstat.pgfault proc-vmstat.pgfree " ] ||
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

# every layout lists them; the headline counts the KPI alone
"$MMB" compare 6.8-base 6.8-thp > "$TMP/text" || die "text"
grep -q '^pft proc-vmstat.pgfault' "$TMP/text" || die "text has no pgfault row"
grep -qx 'verdict: 1 regression, 0 improvements, 0 with no significant change' "$TMP/text" ||
	die "headline counts monitors: $(grep verdict "$TMP/text")"
"$MMB" compare --format mmtests 6.8-base 6.8-thp | grep -q '^Amean     proc-vmstat.pgfault ' ||
	die "mmtests has no pgfault row"
"$MMB" compare --format markdown 6.8-base 6.8-thp | grep -q '^pft, proc-vmstat.pgfault' ||
	die "markdown has no pgfault row"
[ "$("$MMB" compare --format csv 6.8-base 6.8-thp | grep -c '^pft,,proc-vmstat.pgfault,')" = 2 ] ||
	die "csv has no pgfault rows"
"$MMB" compare --format json 6.8-base 6.8-thp > "$TMP/json"
python3 - "$TMP/json" <<'PY' || die "json"
import json, sys
d = json.load(open(sys.argv[1]))
mon = [r["metric"] for r in d["rows"] if r.get("monitor")]
assert mon == ["meminfo.AnonHugePages", "perf-stat.page-faults", "pft.time.minor_page_faults",
               "proc-vmstat.numa_hit", "proc-vmstat.pgfault", "proc-vmstat.pgfree"], mon
assert d["counts"]["regression"] == 1, d["counts"]
# the tested monitor rows are in the Benjamini-Hochberg correction with the KPI:
# the 6 listed and nr_dirtied (over the floors, not significant)
assert d["comparisons_adjusted"] == 8, d["comparisons_adjusted"]
PY
# the report lists them after the significant changes, never among them
"$MMB" -q report --no-plots --out "$TMP/rep" 6.8-base 6.8-thp > /dev/null || die "report"
grep -qx -- '- pft proc-vmstat.pgfault: 6.8-thp -47.1% (16565.2 -> 8761.33, BH q = 3.1e-19)' \
	"$TMP/rep/report.txt" || die "report: no pgfault line: $(cat "$TMP/rep/report.txt")"
! grep -q 'regression: .*proc-vmstat' "$TMP/rep/report.txt" || die "report counts a monitor"
grep -q '^1 regression, 0 improvements' "$TMP/rep/report.txt" || die "report headline"
echo ok
