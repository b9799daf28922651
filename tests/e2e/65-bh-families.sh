#!/bin/bash
# The KPIs are one Benjamini-Hochberg family, the monitor rows another
# (docs/statistics.md): a KPI at p = 0.0035 with 20 noisy proc-vmstat rows
# beside it is a regression with or without them (adjusted together it
# was q = 0.067, "no significant change", and a regression only under
# --monitors none), and the header and footer count the same comparisons.
. "$(dirname "$0")/../e2e-lib.sh"
FIX=$(cd "$(dirname "$0")/../fixtures/compare" && pwd)

"$MMB" -q import --name base "$FIX/flip-base.matrix.json" || die "import base"
"$MMB" -q import --name new "$FIX/flip-new.matrix.json" || die "import new"
for m in changed all none; do
	"$MMB" compare --verbose --monitors "$m" base new > "$TMP/$m" 2> "$TMP/err" || die "compare --monitors $m: $(cat "$TMP/err")"
	grep -qE '^  new +6 +985\.627 +-1\.55% .* 0\.0035 +0\.0035 +regression$' "$TMP/$m" ||
		die "--monitors $m: the KPI is not a regression at q = p: $(cat "$TMP/$m")"
	grep -qx 'verdict: 1 regression, 0 improvements, 0 with no significant change' "$TMP/$m" ||
		die "--monitors $m: headline $(grep verdict: "$TMP/$m")"
	grep -q 'across the 1 KPI comparison here' "$TMP/$m" || die "--monitors $m: header count"
done
# the monitor rows were tested, as a family of their own
grep -q '(the 20 monitor-row tests: a family of their own)' "$TMP/all" ||
	die "the monitor family is not named: $(head -5 "$TMP/all")"
# json and csv agree, and an export -> import keeps every p(BH)
"$MMB" compare --format json base new > "$TMP/json"
python3 - "$TMP/json" <<'PY' || die "json"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["comparisons_adjusted"] == 1, d["comparisons_adjusted"]
assert d["counts"]["regression"] == 1, d["counts"]
kpi = [r for r in d["rows"] if not r["monitor"]]
assert len(kpi) == 1 and abs(kpi[0]["kernels"][1]["test"]["p_bh"] - kpi[0]["kernels"][1]["test"]["p"]) < 1e-15
PY
echo ok
