#!/bin/bash
# compare's exit codes: nothing compared (no series in common, or a
# --workload/--metric that selects nothing) is exit 2 with one error naming
# what each label has; run --compare with an unknown label fails the run
# command, a good one does not.
. "$(dirname "$0")/../e2e-lib.sh"
FIX=$(cd "$(dirname "$0")/../fixtures/compare" && pwd)
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins

"$MMB" -q import --name t "$FIX/aim9-base.csv"
"$MMB" -q import --name e "$FIX/multi-patched.csv"
"$MMB" -q import --name e2 "$FIX/multi-6.8.0-rc4-mm-unstable.csv"

set +e
"$MMB" compare t e > "$TMP/out" 2> "$TMP/err"; rc=$?
[ $rc = 2 ] || die "no series in common: exit $rc, expected 2"
[ ! -s "$TMP/out" ] || die "no series in common printed tables: $(head -3 "$TMP/out")"
[ "$(wc -l < "$TMP/err")" = 1 ] || { cat "$TMP/err"; die "one error line expected"; }
grep -qF 'workloads: t: aim9; e: pte-mapped-folio, ebizzy' "$TMP/err" ||
	{ cat "$TMP/err"; die "the error should name each label's workloads"; }

"$MMB" compare --workload pfft e e2 > "$TMP/out" 2> "$TMP/err"; rc=$?
[ $rc = 2 ] || die "--workload pfft: exit $rc"
grep -qF "no workload 'pfft' in these kernels' runs; workloads: e: pte-mapped-folio, ebizzy; e2: pte-mapped-folio, ebizzy" \
	"$TMP/err" || { cat "$TMP/err"; die "--workload pfft should list the valid workloads"; }
"$MMB" compare --workload ebizzy --metric thruput e e2 > "$TMP/out" 2> "$TMP/err"; rc=$?
[ $rc = 2 ] || die "--metric thruput: exit $rc"
grep -qF "no metric 'thruput' of workload 'ebizzy' in these kernels' runs; metrics: e: throughput, time.sys" \
	"$TMP/err" || { cat "$TMP/err"; die "--metric should list the valid metrics"; }
"$MMB" compare --workload ebizzy e e2 > "$TMP/out" 2> "$TMP/err"; rc=$?
[ $rc = 0 ] || { cat "$TMP/err"; die "a good selection: exit $rc"; }

# --mean: each choice names its statistic; a bad one is a usage error, here and in plot/report
for m in amean hmean gmean median; do
	"$MMB" compare --mean "$m" e e2 > "$TMP/out" 2> "$TMP/err" || { cat "$TMP/err"; die "--mean $m"; }
	t=$(echo "$m" | sed 's/^./\U&/')
	# the compact table's stat column, and the --verbose block's column title
	unwrap "$TMP/out" | grep -q "^ebizzy .* $t  " || die "--mean $m: stat not named $t: $(cat "$TMP/out")"
	"$MMB" compare --verbose --mean "$m" e e2 > "$TMP/out" 2> "$TMP/err" || die "--verbose --mean $m"
	grep -q "^  kernel  *n  *$t   change" "$TMP/out" || die "--mean $m: column not named $t"
done
"$MMB" compare --mean hmean --format csv e e2 | grep -q ',throughput,.*,hmean,0,' || die "csv names the mean"
for cmd in compare plot report; do
	out=(--out "$TMP/x")
	[ $cmd = compare ] && out=()
	"$MMB" $cmd "${out[@]}" --mean mode e e2 > /dev/null 2> "$TMP/err"; rc=$?
	[ $rc = 2 ] && grep -q -- "--mean 'mode'" "$TMP/err" || die "$cmd --mean mode: exit $rc"
done

# run --compare: the run's own exit code says whether the comparison was made
cat > "$TMP/c.yaml" <<EOC
experiment: cmpexit
iterations: 2
warmup: 0
# a busy test machine must not leave the comparison without samples
interference:
  foreign_cpu: off
  steal: off
  freq_drop: off
workloads:
  - name: faulty
EOC
"$MMB" run "$TMP/c.yaml" --name first -q > /dev/null 2> "$TMP/err"; rc=$?
[ $rc = 0 ] || { cat "$TMP/err"; die "run: exit $rc"; }
"$MMB" run "$TMP/c.yaml" --name second --compare nosuchlabel > "$TMP/out" 2> "$TMP/err"; rc=$?
[ $rc != 0 ] || die "run --compare nosuchlabel exited 0"
grep -q "nosuchlabel" "$TMP/err" || { cat "$TMP/err"; die "the unknown label is not named"; }
"$MMB" run "$TMP/c.yaml" --name third --compare first > "$TMP/out" 2> "$TMP/err"; rc=$?
[ $rc = 0 ] || { cat "$TMP/err"; die "run --compare first: exit $rc"; }
grep -q '^comparison: first (base) vs third' "$TMP/out" || die "no comparison printed"
set -e
echo ok
