#!/bin/bash
# compare: golden output of every format (mmtests, lkp, markdown, csv, json,
# default table) on fixed samples imported from tests/fixtures/compare,
# including the 0-day aim9 row and mmtests rows.  UPDATE=1 rewrites the
# expected files (review the diff before committing).
set -eu
MMB=$MMBENCH_BUILD/mmbench
FIX=$(cd "$(dirname "$0")/../fixtures/compare" && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
DB=$W/golden.db
fail=0

"$MMB" -q import --db "$DB" --name fc21959f74 "$FIX/aim9-base.csv"
"$MMB" -q import --db "$DB" --name cacded5e42 "$FIX/aim9-new.csv"
"$MMB" -q import --db "$DB" --name lkp-base "$FIX/aim9-base.matrix.json"
"$MMB" -q import --db "$DB" --name lkp-new "$FIX/aim9-new.matrix.json"
for k in 6.8.0-rc4-mm-unstable 6.8.0-rc4-fork-batch patched; do
	"$MMB" -q import --db "$DB" --name "$k" "$FIX/multi-$k.csv"
done

check() {	# name, compare args...
	local name=$1; shift
	"$MMB" compare --db "$DB" "$@" >"$W/$name.out"
	if [ "${UPDATE:-}" = 1 ]; then
		cp "$W/$name.out" "$FIX/expected/$name"
	elif ! cmp -s "$W/$name.out" "$FIX/expected/$name"; then
		echo "FAIL: compare $* differs from expected/$name:"
		diff -u "$FIX/expected/$name" "$W/$name.out" | head -40
		fail=1
	fi
}
mkdir -p "$FIX/expected"

AIM="fc21959f74 cacded5e42"
check aim9.text $AIM
check aim9.mmtests --format mmtests $AIM
check aim9.mmtests-rule --format mmtests --test mmtests $AIM
check aim9.lkp --format lkp $AIM
check aim9.lkp-rule --format lkp --test lkp $AIM
check aim9.markdown --format markdown $AIM
check aim9.csv --format csv $AIM
check aim9.json --format json $AIM
check matrix.lkp --format lkp lkp-base lkp-new

MULTI="6.8.0-rc4-mm-unstable 6.8.0-rc4-fork-batch patched"
check multi.text $MULTI
check multi.text-verbose --verbose $MULTI
check multi.text-mwu --test mwu $MULTI
check multi.text-lkp --test lkp $MULTI
check multi.mmtests --format mmtests --test mmtests $MULTI
check multi.mmtests-welch --format mmtests $MULTI
check multi.lkp --format lkp $MULTI
check multi.markdown --format markdown $MULTI
check multi.csv --format csv $MULTI
check multi.json --format json $MULTI
check multi.ebizzy-filter --workload ebizzy --metric throughput $MULTI

# The row 0-day printed for these six runs per side, byte for byte.
row='   1322908            -5.0%    1256536        aim9.brk_test.ops_per_sec'
grep -qxF "$row" "$W/aim9.lkp.out" || { echo "FAIL: aim9 0-day row missing"; fail=1; }
grep -qxF "$row" "$W/matrix.lkp.out" || { echo "FAIL: aim9 row from matrix.json"; fail=1; }
grep -qxF '    201.54            +2.9%     207.44        aim9.time.system_time' \
	"$W/matrix.lkp.out" || { echo "FAIL: aim9.time.system_time row"; fail=1; }
# An mmtests mean row: Hmean, %18.2f, starred per Welch+BH, "(   0.00%)" baseline.
grep -qxF 'Hmean     brk_test.ops_per_sec        1322620.98 (   0.00%)        1256258.29 *  -5.02%*' \
	"$W/aim9.mmtests.out" || { echo "FAIL: mmtests Hmean row"; fail=1; }
# The band rule does not star it: |d| = 66362 < 1.96 * (19536 + 18749).
grep -qxF 'Hmean     brk_test.ops_per_sec        1322620.98 (   0.00%)        1256258.29 (  -5.02%)' \
	"$W/aim9.mmtests-rule.out" || { echo "FAIL: mmtests band rule row"; fail=1; }
# JSON parses and CSV has one line per kernel and row.
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$W/multi.json.out" 2>/dev/null ||
	{ command -v python3 >/dev/null && { echo "FAIL: invalid JSON"; fail=1; }; }
[ "$(wc -l < "$W/multi.csv.out")" -eq $((1 + 5 * 3)) ] || { echo "FAIL: csv line count"; fail=1; }
exit $fail
