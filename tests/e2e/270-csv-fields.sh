#!/bin/bash
# compare --format csv read by a real CSV parser (python3's csv module):
# every row has exactly the header's fields (the baseline label's rows had
# one more, shifting verdict, mean and every column after them), and no two
# columns share a name (the metric's "unit" and the test's "test_unit").
set -eu
MMB=$MMBENCH_BUILD/mmbench
FIX=$(cd "$(dirname "$0")/../fixtures/compare" && pwd)
command -v python3 >/dev/null || { echo "skip: python3 is not installed"; exit 77; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
DB=$W/csv.db
"$MMB" -q import --db "$DB" --name fc21959f74 "$FIX/aim9-base.csv"
"$MMB" -q import --db "$DB" --name cacded5e42 "$FIX/aim9-new.csv"
for k in 6.8.0-rc4-mm-unstable 6.8.0-rc4-fork-batch patched; do
	"$MMB" -q import --db "$DB" --name "$k" "$FIX/multi-$k.csv"
done
"$MMB" compare --db "$DB" --format csv fc21959f74 cacded5e42 >"$W/aim9.csv"
"$MMB" compare --db "$DB" --format csv 6.8.0-rc4-mm-unstable 6.8.0-rc4-fork-batch patched \
	>"$W/multi.csv"
python3 - "$W/aim9.csv" "$W/multi.csv" <<'PY'
import csv, sys
bad = 0
for path in sys.argv[1:]:
    rows = list(csv.reader(open(path, newline='')))
    head, body = rows[0], rows[1:]
    dup = sorted({h for h in head if head.count(h) > 1})
    if dup:
        print(f"FAIL: {path}: columns named twice: {dup}"); bad = 1
    for n, row in enumerate(body, 2):
        if len(row) != len(head):
            print(f"FAIL: {path}:{n}: {len(row)} fields under a {len(head)}-column header"); bad = 1
            break
    for row in (dict(zip(head, r)) for r in body):
        base = row["kernel"] == row["baseline"]
        if base and (row["verdict"] != "baseline" or row["test"] != ""):
            print(f"FAIL: {path}: baseline row verdict={row['verdict']!r} test={row['test']!r}"); bad = 1
            break
        if row["mean"] not in ("amean", "hmean", "gmean", "median"):
            print(f"FAIL: {path}: mean column holds {row['mean']!r}"); bad = 1
            break
        if row["test_unit"] not in ("", "run", "iteration") or row["clock"] not in ("real", "virtual", "mixed"):
            print(f"FAIL: {path}: test_unit {row['test_unit']!r} clock {row['clock']!r}"); bad = 1
            break
sys.exit(bad)
PY
echo ok
