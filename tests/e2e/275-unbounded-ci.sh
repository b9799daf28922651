#!/bin/bash
# A CI that this n cannot bound is said in words (issue 45 item 7): three
# runs a label whose run means scatter widely leave Fieller's interval of
# the Hmean ratio unbounded, and --test mwu at 3 v 3 has no exact 95%
# interval at all (P(U = 0) = 5%).  Every layout prints "unbounded" and
# the notes say "too few runs to bound the change ... n = 3 v 3" instead of
# +inf% or a -100% fall of a positive metric; the report says it too.
set -eu
MMB=$MMBENCH_BUILD/mmbench
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
DB=$W/u.db
fail=0
imp() {	# label, run means...
	local l=$1 m; shift
	for m in "$@"; do
		{ echo 'workload,metric,variant,iteration,value,unit,better'
		  for it in 1 2 3; do echo "w,ops,,$it,$((m + it)),ops/s,higher"; done
		} > "$W/run.csv"
		"$MMB" -q import --db "$DB" --name "$l" "$W/run.csv"
	done
}
imp a 100 200 20
imp b 110 190 30
check() {	# what, file
	if grep -qE 'inf%|-100\.0*%' "$2"; then
		echo "FAIL: $1 prints an infinite or -100% bound:"; grep -E 'inf%|-100\.0*%' "$2"; fail=1
	fi
	grep -q 'unbounded' "$2" || { echo "FAIL: $1 does not say unbounded:"; cat "$2"; fail=1; }
}
for t in welch mwu; do
	"$MMB" compare --db "$DB" --test $t a b >"$W/text.$t" || true
	check "compare --test $t" "$W/text.$t"
	unwrap_file=$(awk 'NR > 1 && /^  [^ ]/ { sub(/^  /, " "); printf "%s", $0; next }
		NR > 1 { print "" } { printf "%s", $0 } END { print "" }' "$W/text.$t")
	grep -q '^unbounded: too few runs to bound the change at 95%: n = 3 v 3' <<<"$unwrap_file" ||
		{ echo "FAIL: --test $t: no note in words"; cat "$W/text.$t"; fail=1; }
	"$MMB" compare --db "$DB" --test $t --format markdown a b >"$W/md.$t" || true
	check "compare --test $t --format markdown" "$W/md.$t"
	"$MMB" report --db "$DB" --test $t --no-plots --out "$W/r.$t" a b >/dev/null 2>&1 ||
		{ echo "FAIL: report --test $t"; fail=1; continue; }
	grep -q 'unbounded' "$W/r.$t/report.txt" && ! grep -qE 'inf%' "$W/r.$t/report.txt" ||
		{ echo "FAIL: report --test $t:"; cat "$W/r.$t/report.txt"; fail=1; }
done
exit $fail
