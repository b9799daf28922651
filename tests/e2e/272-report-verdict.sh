#!/bin/bash
# report's headline verdict is compare's, computed once from the same
# comparison: for several selections (a regression, three kernels with
# mixed results, an A/A, an inconclusive comparison whose values were kept
# although disturbed) report.txt's "verdict:" line equals compare's last
# line, and an inconclusive comparison is never summed up as "No
# significant change." (it hid a significant change behind its entries).
set -eu
MMB=$MMBENCH_BUILD/mmbench
FIX=$(cd "$(dirname "$0")/../fixtures/compare" && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
DB=$W/v.db
fail=0
"$MMB" -q import --db "$DB" --name fc21959f74 "$FIX/aim9-base.csv"
"$MMB" -q import --db "$DB" --name cacded5e42 "$FIX/aim9-new.csv"
for k in 6.8.0-rc4-mm-unstable 6.8.0-rc4-fork-batch patched; do
	"$MMB" -q import --db "$DB" --name "$k" "$FIX/multi-$k.csv"
done
"$MMB" -q import --db "$DB" --name aa-one "$FIX/aa-one.csv"
"$MMB" -q import --db "$DB" --name aa-two "$FIX/aa-two.csv"
# the new side of this pair was measured on a busy machine: kept, its
# interference differs from the baseline's, so compare says inconclusive
"$MMB" -q import --db "$DB" --name quiet-base "$FIX/aim9-base.csv"
"$MMB" -q import --db "$DB" --name busy-new "$FIX/aim9-new.csv"
busy=$(command sqlite3 "$DB" "SELECT max(id) FROM runs")
for it in 1 2 3 4 5 6; do
	command sqlite3 "$DB" "INSERT INTO iterations (run_id, workload, variant, iteration,
		status, disturbed, interference) VALUES ($busy, 'aim9', 'test=brk_test', $it, 'ok',
		'foreign CPU 80% of 2 CPUs', 0.8), ($((busy - 1)), 'aim9', 'test=brk_test', $it,
		'ok', NULL, 0.0)"
done

n=0
same() {	# compare/report args...
	local want got
	n=$((n + 1))
	"$MMB" compare --db "$DB" "$@" >"$W/c$n" 2>/dev/null || true
	want=$(grep '^verdict: ' "$W/c$n" | tail -1)
	[ -n "$want" ] || { echo "FAIL: compare $* printed no verdict"; fail=1; return; }
	"$MMB" report --db "$DB" --no-plots --out "$W/r$n" "$@" >/dev/null 2>"$W/e$n" ||
		{ echo "FAIL: report $*: $(cat "$W/e$n")"; fail=1; return; }
	# the report wraps at 80 columns: join its paragraph before comparing
	got=$(awk '/^verdict: /{p=1} p&&/^$/{exit} p' "$W/r$n/report.txt" | tr '\n' ' ' |
	      sed 's/  */ /g; s/ $//')
	[ "$got" = "$want" ] || { echo "FAIL: report $*: '$got', compare: '$want'"; fail=1; }
	if [[ $want == *inconclusive* ]] && grep -q 'No significant change\.' "$W/r$n/report.txt"; then
		echo "FAIL: report $*: 'No significant change.' although compare says '$want'"
		fail=1
	fi
}
same fc21959f74 cacded5e42
same 6.8.0-rc4-mm-unstable 6.8.0-rc4-fork-batch patched
same --test mwu 6.8.0-rc4-mm-unstable 6.8.0-rc4-fork-batch patched
same --metric m000 aa-one aa-two
same --keep-disturbed quiet-base busy-new
grep -q '^verdict: inconclusive' "$W/c$n" || { echo "FAIL: the busy pair is not inconclusive:"; cat "$W/c$n"; fail=1; }
exit $fail
