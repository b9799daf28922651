#!/bin/bash
# Issue 28's presentation items, each on small fixed samples
# (tests/fixtures/presentation) against golden output; UPDATE=1 rewrites
# the expected files (review the diff before committing).
#  6: a side without data reads "-" in the mmtests layout, as in the
#     readable one (it printed 0.0000 (0.00%), a measured zero);
#  3: report.txt's tables carry the workload's metrics only (monitor rows,
#     with long names, have their own section and made every line wrap);
#  9: the runner's /proc/meminfo deltas are named meminfo-delta.*, not
#     lkp's meminfo.* (levels); monitor rows in report.html are neutral
#     ("changed", no direction, no good/bad colour);
#  5: report.html shows the statistic that was tested (Hmean beside an
#     Hmean change, not the Amean);
#  4: change plots draw an inconclusive row as its own class, not as "no
#     significant change";
#  8: --test mwu's statistic is the median, its CI (the Hodges-Lehmann
#     shift) relative to the baseline's median, not to its Hmean;
# 10: the default readable layout is one line per row (as benchstat), each
#     inconclusive reason said once; --verbose has the blocks;
# 12: mmtests' decimals found as mmtests finds a shellpack
#     (hackbench-process-pipes: hackbench's 4), and its means summed over
#     the samples sorted best-first (1e17 then seven 3s: the 3s count);
# 13: the lkp layout: no +-%stddev for a negative mean, "commit: " keeps
#     lkp's trailing space (the thresholds and the row order: unit
#     test_monlist and e2e 61);
#  7: a half-bounded CI is printed as the table prints it, and never
#     leaves a stray ", ," in report.txt/md.
. "$(dirname "$0")/../e2e-lib.sh"
SRC=${MMBENCH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FIX=$SRC/tests/fixtures/presentation
fail=0
golden() {	# NAME: $TMP/NAME against $FIX/expected/NAME
	if [ "${UPDATE:-}" = 1 ]; then
		cp "$TMP/$1" "$FIX/expected/$1"
	elif ! cmp -s "$TMP/$1" "$FIX/expected/$1"; then
		echo "FAIL: $1 differs from the expected output:"
		diff -u "$FIX/expected/$1" "$TMP/$1" | head -40
		fail=1
	fi
}
DB=$TMP/p.db
"$MMB" -q import --db "$DB" --name base "$FIX/nodata-base.csv"
"$MMB" -q import --db "$DB" --name new "$FIX/nodata-new.csv"
"$MMB" compare --db "$DB" --format mmtests base new > "$TMP/nodata.mmtests"
golden nodata.mmtests
grep -q "only_base .* - (       -)$" "$TMP/nodata.mmtests" || die "item 6: no '-' for the side without data"
"$MMB" compare --db "$DB" --test mwu base new > "$TMP/nodata.mwu"
golden nodata.mwu
[ "$(grep -c '^  Median ' "$TMP/nodata.mwu")" = 3 ] || die "item 8: mwu rows not by median"

DB=$TMP/n.db
{ echo 'workload,metric,variant,iteration,value,unit,better'
  for i in 1 2 3 4 5 6; do echo "neg,delta,,$i,$((-1000 - 300 * (i % 3))),pages,higher"; done
} > "$TMP/neg-base.csv"
sed 's/,-1/,-2/' "$TMP/neg-base.csv" > "$TMP/neg-new.csv"
"$MMB" -q import --db "$DB" --name base "$TMP/neg-base.csv"
"$MMB" -q import --db "$DB" --name new "$TMP/neg-new.csv"
"$MMB" compare --db "$DB" --format lkp base new > "$TMP/neg.lkp"
golden neg.lkp
grep -q "^commit: $" "$TMP/neg.lkp" || die "item 13: 'commit:' without lkp's trailing space"
grep -q "neg.delta$" "$TMP/neg.lkp" && ! grep -q "±" "$TMP/neg.lkp" ||
	die "item 13: a +-%stddev beside a negative mean: $(cat "$TMP/neg.lkp")"

DB=$TMP/o.db
"$MMB" -q import --db "$DB" --name base "$FIX/order-base.csv"
"$MMB" -q import --db "$DB" --name new "$FIX/order-new.csv"
"$MMB" compare --db "$DB" --format mmtests base new > "$TMP/order.mmtests"
golden order.mmtests
grep -q "^Amean     time-4            0.3720 " "$TMP/order.mmtests" || die "item 12: not 4 decimals"
grep -q "^Amean     big12500000000000002.00 " "$TMP/order.mmtests" || die "item 12: not summed best-first"

DB=$TMP/h.db
"$MMB" -q import --db "$DB" --name base "$FIX/halfci-base.csv"
"$MMB" -q import --db "$DB" --name new "$FIX/halfci-new.csv"
"$MMB" report --db "$DB" --out "$TMP/rep" --no-plots base new > /dev/null
sed -n '/^Significant changes/,/^[0-9]* regression/p' "$TMP/rep/report.txt" > "$TMP/halfci.verdicts"
golden halfci.verdicts
grep -q ", ," "$TMP/rep/report.txt" "$TMP/rep/report.md" "$TMP/rep/report.html" &&
	die "item 7: a stray ', ,' in the report"
# the unbounded side in words, not +inf% (issue 45 item 7)
tr '\n' ' ' < "$TMP/rep/report.txt" | sed 's/  */ /g' |
	grep -qF "95% CI [+270.92%, unbounded] (too few values to bound it: n = 8 v 8), p = 4.1e-06" ||
	die "item 7: the half-bounded CI is not in report.txt"
DB=$TMP/m.db
"$MMB" -q import --db "$DB" --name 6.8-base "$SRC/tests/fixtures/compare/vmstat-base.matrix.json"
"$MMB" -q import --db "$DB" --name 6.8-thp "$SRC/tests/fixtures/compare/vmstat-new.matrix.json"
"$MMB" report --db "$DB" --out "$TMP/mon" --no-plots --monitors all 6.8-base 6.8-thp > /dev/null
long=$(awk 'length > 80' "$TMP/mon/report.txt")
[ -z "$long" ] || die "item 3: report.txt lines over 80 columns: $long"
sed -n '/^Comparison/,/^Significant changes/p' "$TMP/mon/report.txt" > "$TMP/mon.tables"
grep -qE "proc-vmstat|meminfo|perf-stat" "$TMP/mon.tables" && die "item 3: monitor rows in the tables"
grep -q "pft.faults_per_sec_per_cpu\|faults_per_sec_per_cpu" "$TMP/mon.tables" || die "item 3: no KPI in the tables"
grep -q "proc-vmstat.pgfault" "$TMP/mon/report.txt" || die "item 3: the monitor section lost its rows"
# item 9 in the readable and markdown layouts: neutral monitor rows (the
# readable layout lists them with --verbose; its default paste counts them)
"$MMB" compare --db "$DB" --verbose 6.8-base 6.8-thp > "$TMP/mon.text"
sed -n '/\[monitor/,/^$/p' "$TMP/mon.text" | grep -qE 'improvement|regression' &&
	die "item 9: a monitor row with a direction: $(cat "$TMP/mon.text")"
sed -n '/^pft proc-vmstat.pgfault \[monitor/,/^$/p' "$TMP/mon.text" | grep -q '  changed$' ||
	die "item 9: pgfault not 'changed': $(cat "$TMP/mon.text")"
"$MMB" compare --db "$DB" --format markdown 6.8-base 6.8-thp | grep -q 'pgfault (monitor, not in the verdict' ||
	die "item 9: markdown gives a monitor row a direction"
cat > "$TMP/mon.yaml" << EOC
experiment: mon
iterations: 2
warmup: 0
monitors: meminfo
workloads:
  - name: skeleton
EOC
"$MMB" run --db "$TMP/r.db" "$TMP/mon.yaml" -q > /dev/null 2>&1 || true
[ "$(sqlite3 "$TMP/r.db" "SELECT count(*) FROM monitors WHERE source = 'meminfo-delta'")" -gt 0 ] ||
	die "item 9: no meminfo-delta monitor rows: $(sqlite3 "$TMP/r.db" "SELECT DISTINCT source FROM monitors")"
[ "$(sqlite3 "$TMP/r.db" "SELECT count(*) FROM monitors WHERE source = 'meminfo'")" = 0 ] ||
	die "item 9: runner deltas recorded under lkp's meminfo name"
# report.html: monitor rows in their own list, never a table row (issue 45 item 5)
H=$TMP/mon/report.html
grep -q '<li>pft proc-vmstat.pgfault: 6.8-thp ' "$H" || die "item 9: pgfault not in the monitors list"
grep -q 'proc-vmstat.pgfault <small>(monitor' "$H" && die "item 9: a monitor row in the html table"
awk -v FS='>' '/monitor/' "$H" | grep -qE 'class="(better|worse)"' && die "item 9: a monitor row coloured good/bad"
# item 5: the halfci KPI is higher-is-better: its Hmean (9.59993), not its Amean
grep -q 'ops/s, higher is better, Hmean)' "$TMP/rep/report.html" || die "item 5: no statistic named"
grep -q '>9.59993 <small>n=8' "$TMP/rep/report.html" || die "item 5: the new mean is not the Hmean"
if command -v gnuplot > /dev/null; then
	cat > "$TMP/f.yaml" << EOC
experiment: inconclusive
iterations: 6
warmup: 0
workloads:
  - name: skeleton
EOC
	export MMBENCH_DB=$TMP/i.db
	"$MMB" run --name a "$TMP/f.yaml" -q > /dev/null 2>&1 || die "run a"
	"$MMB" run --name b "$TMP/f.yaml" -q > /dev/null 2>&1 || die "run b"
	# b keeps 2 clean iterations: too few for a verdict (docs/statistics.md)
	q "UPDATE iterations SET disturbed = 'foreign CPU 80% of 2 CPUs (limit 10%)'
	   WHERE run_id = (SELECT max(id) FROM runs) AND iteration > 2"
	"$MMB" compare --monitors none a b > "$TMP/cmp" 2>&1 || true
	grep -q "inconclusive" "$TMP/cmp" || die "item 4: the row is not inconclusive: $(cat "$TMP/cmp")"
	[ "$(grep -c '^skeleton ' "$TMP/cmp")" = 2 ] || die "item 10: not one line per row: $(cat "$TMP/cmp")"
	# the two rows share their reason: said once, the rows counted (issue 45 item 3)
	[ "$(grep -c 'too few clean samples' "$TMP/cmp")" = 1 ] &&
	grep -q '^inconclusive: 2 rows, b vs a: too few clean samples' "$TMP/cmp" ||
		die "item 10: the shared reason not said once: $(cat "$TMP/cmp")"
	"$MMB" compare --verbose a b > "$TMP/cmpv" 2>&1 || true
	grep -q '^  kernel ' "$TMP/cmpv" || die "item 10: --verbose has no blocks: $(cat "$TMP/cmpv")"
	"$MMB" plot --out "$TMP/plots" a b > /dev/null 2>&1 || true
	dat=$(ls "$TMP"/plots/*-change.dat | head -1)
	[ -n "$dat" ] || die "item 4: no change plot"
	awk '!/^#/ && NF == 6 { print $6 }' "$dat" | grep -qx 3 || die "item 4: not class 3 in $dat: $(cat "$dat")"
	grep -q 'title "inconclusive (machine state)"' "${dat%.dat}.gp" || die "item 4: no inconclusive legend"
	unset MMBENCH_DB
fi
[ $fail = 0 ] || exit 1
echo ok
