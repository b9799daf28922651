#!/bin/bash
# --format lkp lists only the stats that changed, as 0-day's ncompare does
# (docs/report-formats.md 2.4): an A/A lists none (it listed -18.4% rows
# with no marker while its verdicts said "no significant change"), and a
# comparison of three kernels lists exactly the KPIs whose verdict is a
# change for some kernel (read from the CSV with python3's csv module),
# counting the rest it left out.
set -eu
MMB=$MMBENCH_BUILD/mmbench
FIX=$(cd "$(dirname "$0")/../fixtures/compare" && pwd)
command -v python3 >/dev/null || { echo "skip: python3 is not installed"; exit 77; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
DB=$W/l.db
fail=0
"$MMB" -q import --db "$DB" --name aa-one "$FIX/aa-one.csv"
"$MMB" -q import --db "$DB" --name aa-two "$FIX/aa-two.csv"
for k in 6.8.0-rc4-mm-unstable 6.8.0-rc4-fork-batch patched; do
	"$MMB" -q import --db "$DB" --name "$k" "$FIX/multi-$k.csv"
done

# the stats lkp lists are exactly those whose verdict is a change (CSV)
same_as_csv() {	# lkp-file csv-file
	python3 - "$1" "$2" <<'PY'
import csv, re, sys
lkp = open(sys.argv[1]).read().splitlines()
listed = {l.split()[-1] for l in lkp if re.match(r'^ +[-0-9.]+ ', l) and '%' in l}
changed = set()
for r in csv.DictReader(open(sys.argv[2], newline='')):
    if r['verdict'] in ('improvement', 'regression'):
        changed.add(r['workload'] + '.' + r['metric'])
if listed != changed:
    print(f"FAIL: {sys.argv[1]} lists {sorted(listed)[:8]}, the changed stats are {sorted(changed)[:8]}")
    sys.exit(1)
PY
}
for t in welch lkp; do
	"$MMB" compare --db "$DB" --format lkp --test $t aa-one aa-two >"$W/aa.$t" || true
	"$MMB" compare --db "$DB" --format csv --test $t aa-one aa-two >"$W/aa.$t.csv" || true
	same_as_csv "$W/aa.$t" "$W/aa.$t.csv" || fail=1
done
# welch with BH flags none of the 200 (e2e 42): 0-day would list nothing
grep -q '^no stat changed under the test' "$W/aa.welch" ||
	{ echo "FAIL: the A/A does not say no stat changed: $(head -c 600 "$W/aa.welch")"; fail=1; }

MULTI="6.8.0-rc4-mm-unstable 6.8.0-rc4-fork-batch patched"
"$MMB" compare --db "$DB" --format lkp $MULTI >"$W/multi.lkp"
"$MMB" compare --db "$DB" --format csv $MULTI >"$W/multi.csv"
same_as_csv "$W/multi.lkp" "$W/multi.csv" || fail=1
grep -qE '^[0-9]+ unchanged stats? left out, as 0-day does' "$W/multi.lkp" ||
	{ echo "FAIL: the stats left out are not counted"; fail=1; }
exit $fail
