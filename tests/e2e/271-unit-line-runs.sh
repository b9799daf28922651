#!/bin/bash
# The unit line describes the runs that exist and what was left out: 3
# runs per label whose iterations were all disturbed must not say "1 run per
# label" (it said so, as if one run had been recorded); with two of each
# label's three runs disturbed the line says the tests saw 1 v 1 of 3 v 3
# runs; --keep-disturbed tests all of them ("run, 3 v 3").
set -eu
MMB=$MMBENCH_BUILD/mmbench
FIX=$(cd "$(dirname "$0")/../fixtures/compare" && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
DB=$W/u.db
fail=0
for l in c d; do
	for _ in 1 2 3; do "$MMB" -q import --db "$DB" --name "$l" "$FIX/aim9-base.csv"; done
done
# imports have no iteration records: mark each run's six iterations disturbed
disturb() {	# run ids...
	for r in "$@"; do
		for it in 1 2 3 4 5 6; do
			command sqlite3 "$DB" "INSERT INTO iterations (run_id, workload, variant,
				iteration, status, disturbed, interference) VALUES ($r, 'aim9',
				'test=brk_test', $it, 'ok', 'foreign CPU 80% of 2 CPUs', 0.8)"
		done
	done
}
unit_of() {	# out file: the unit line and its continuation lines
	sed -n '/^unit: /,/^[a-z]/p' "$1" | sed '$d'
}
expect() {	# what, file, pattern
	grep -qE "$3" "$2" || { echo "FAIL: $1: no /$3/ in:"; cat "$2"; fail=1; }
}
reject() {	# what, file, pattern
	! grep -qE "$3" "$2" || { echo "FAIL: $1: /$3/ in:"; cat "$2"; fail=1; }
}

c_runs=$(command sqlite3 "$DB" "SELECT r.id FROM runs r JOIN kernels k ON k.id = r.kernel_id
	WHERE k.label = 'c' ORDER BY r.id" | tr '\n' ' ')
d_runs=$(command sqlite3 "$DB" "SELECT r.id FROM runs r JOIN kernels k ON k.id = r.kernel_id
	WHERE k.label = 'd' ORDER BY r.id" | tr '\n' ' ')
set -- $c_runs; c1=$1 c2=$2 c3=$3
set -- $d_runs; d1=$1 d2=$2 d3=$3

disturb "$c1" "$c2" "$d1" "$d2"
"$MMB" compare --db "$DB" c d >"$W/two" 2>&1 || true
unit_of "$W/two" >"$W/two.unit"
expect "two of three runs disturbed" "$W/two.unit" '1 v 1 of the 3 v 3 pooled'
expect "two of three runs disturbed" "$W/two.unit" 'disturbed: left out'

disturb "$c3" "$d3"
"$MMB" compare --db "$DB" c d >"$W/all" 2>&1 || true
unit_of "$W/all" >"$W/all.unit"
reject "all runs disturbed" "$W/all.unit" '1 run per label'
expect "all runs disturbed" "$W/all.unit" '^unit: none: no KPI row had values'
expect "all runs disturbed" "$W/all.unit" '0 v 0 of the 3 v 3 pooled'
"$MMB" compare --db "$DB" --format json c d 2>/dev/null >"$W/all.json" || true
reject "all runs disturbed, json" "$W/all.json" '1 run per label'
expect "all runs disturbed, json" "$W/all.json" '"unit":"none: [^"]*3 v 3'

"$MMB" compare --db "$DB" --keep-disturbed c d >"$W/keep" 2>&1 || true
unit_of "$W/keep" >"$W/keep.unit"
expect "--keep-disturbed" "$W/keep.unit" '^unit: run, 3 v 3'
reject "--keep-disturbed" "$W/keep.unit" 'runs with values'
exit $fail
