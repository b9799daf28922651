#!/bin/bash
# What a reviewer pastes (issue 45 item 3): a two-label comparison of 10
# KPIs, 3 runs a label, the new label's iterations disturbed and kept
# (--keep-disturbed), with 15 monitor rows of which 10 changed.  The
# default text fits in 40 lines of at most 80 columns; the reason the 5
# changed rows are inconclusive is said once with the rows counted; the
# monitor rows are counted, not listed (--verbose lists them, with each
# row's reason); the lkp and mmtests layouts say the shared reason once too.
set -eu
MMB=$MMBENCH_BUILD/mmbench
command -v python3 >/dev/null || { echo "skip: python3 is not installed"; exit 77; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
DB=$W/p.db
fail=0
# fixed values (no randomness): every other KPI and 10 monitors +343% under b
python3 - "$W" <<'PY'
import json, sys
mon = ['proc-vmstat.pgfault', 'proc-vmstat.pgfree', 'proc-vmstat.numa_hit',
       'proc-vmstat.numa_local', 'proc-vmstat.pgalloc_normal', 'proc-vmstat.thp_fault_alloc',
       'meminfo.AnonHugePages', 'perf-stat.page-faults', 'pft.time.minor_page_faults',
       'pft.time.system_time', 'pft.time.user_time', 'proc-vmstat.nr_anon_pages',
       'proc-vmstat.pgactivate', 'proc-vmstat.pgmajfault', 'proc-vmstat.nr_free_pages']
kpi = ['faults_per_sec_per_cpu', 'faults_per_sec', 'elapsed', 'cpu_time', 'wall_time',
       'clients1', 'clients2', 'clients4', 'clients8', 'clients16']
for lab, f in (('a', 1.0), ('b', 4.43)):
    for run in range(3):
        d = {}
        for k, m in enumerate(kpi):
            d['pft.' + m] = [round(100000 * (k + 1) * (f if k % 2 == 0 else 1.0) *
                                   (1 + 0.01 * ((i * 7 + run * 3 + k) % 5 - 2)), 2) for i in range(6)]
        for k, m in enumerate(mon):
            d[m] = [round(50000 * (k + 1) * (f if k < 10 else 1.0) *
                          (1 + 0.01 * ((i * 3 + run + k) % 5 - 2)), 2) for i in range(6)]
        json.dump(d, open(f'{sys.argv[1]}/{lab}{run}.matrix.json', 'w'))
PY
for l in a b; do
	for r in 0 1 2; do "$MMB" -q import --db "$DB" --name $l "$W/$l$r.matrix.json"; done
done
# a's runs measured quiet, b's disturbed by a load using 30% of the CPUs
for r in $(command sqlite3 "$DB" "SELECT r.id FROM runs r JOIN kernels k ON k.id = r.kernel_id ORDER BY r.id"); do
	for it in 1 2 3 4 5 6; do
		if [ "$r" -le 3 ]; then v="NULL, 0.0"; else v="'foreign CPU 30% of 2 CPUs', 0.3"; fi
		command sqlite3 "$DB" "INSERT INTO iterations (run_id, workload, variant, iteration,
			status, disturbed, interference) VALUES ($r, 'pft', '', $it, 'ok', $v)"
	done
done

"$MMB" compare --db "$DB" --keep-disturbed a b >"$W/text" || true
lines=$(wc -l < "$W/text")
long=$(awk 'length > 80 { print FNR": "$0 }' "$W/text")
[ "$lines" -le 40 ] || { echo "FAIL: the default text is $lines lines (at most 40)"; fail=1; }
[ -z "$long" ] || { echo "FAIL: lines over 80 columns:"; echo "$long"; fail=1; }
[ "$(grep -c 'interference differs' "$W/text")" = 1 ] &&
grep -q '^inconclusive: 5 rows, b vs a: interference differs' "$W/text" ||
	{ echo "FAIL: the shared reason is not said once with its rows counted"; fail=1; }
[ "$(grep -c '^pft .* \[higher\]' "$W/text")" = 10 ] || { echo "FAIL: not every KPI is listed"; fail=1; }
grep -qE 'proc-vmstat|meminfo\.|perf-stat' "$W/text" && { echo "FAIL: monitor rows listed"; fail=1; }
grep -qx 'monitors: 10 rows changed, never in the verdict (--verbose lists them)' "$W/text" ||
	{ echo "FAIL: the monitor rows are not counted"; fail=1; }
[ "$fail" = 0 ] || cat "$W/text"

"$MMB" compare --db "$DB" --keep-disturbed --verbose a b >"$W/verbose" || true
[ "$(grep -c '^pft proc-vmstat\.' "$W/verbose")" -ge 5 ] || { echo "FAIL: --verbose lists no monitor rows"; fail=1; }
[ "$(grep -c '^inconclusive: pft .*interference differs' "$W/verbose")" = 5 ] ||
	{ echo "FAIL: --verbose does not give each row's reason"; fail=1; }
for f in lkp mmtests markdown; do
	"$MMB" compare --db "$DB" --keep-disturbed --format $f a b >"$W/$f" || true
	[ "$(grep -c 'interference differs' "$W/$f")" = 1 ] ||
		{ echo "FAIL: --format $f says the shared reason $(grep -c 'interference differs' "$W/$f") times"; fail=1; }
done
exit $fail
