#!/bin/bash
# run --precision stops a quiet variant at the first look (20 clean
# iterations) instead of running to --max-iterations; its bounds are checked.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
cat > "$TMP/p.yaml" <<EOC
experiment: precise
iterations: 3
warmup: 0
interference: { foreign_cpu: off, steal: off }
workloads:
  - name: good_minimal
EOC
# a constant metric: its CI has zero width, so the first look stops it
run --name p --precision 1% --max-iterations 80 "$TMP/p.yaml"
[ $rc -eq 0 ] || die "precision run failed: $(cat "$TMP/err")"
n=$(q "select count(*) from iterations where status = 'ok'")
[ "$n" = 20 ] || die "expected to stop at the first look (20), ran $n"
"$MMB" run --name p2 --precision 1% --max-iterations 80 "$TMP/p.yaml" > "$TMP/o0" 2>&1 ||
	die "second precision run failed"
grep -q "within 1% of its mean after 20 clean iterations" "$TMP/o0" ||
	die "no message saying why it stopped: $(cat "$TMP/o0")"
set +e
"$MMB" run "$TMP/p.yaml" --max-iterations 10 > "$TMP/o" 2>&1; r1=$?
"$MMB" run "$TMP/p.yaml" --precision 0 > "$TMP/o2" 2>&1; r2=$?
"$MMB" run "$TMP/p.yaml" --precision 1% --min-iterations 30 --max-iterations 20 > "$TMP/o3" 2>&1; r3=$?
set -e
[ $r1 = 2 ] && grep -q "go with --precision" "$TMP/o" || die "--max-iterations alone: exit $r1: $(cat "$TMP/o")"
[ $r2 = 2 ] && grep -q "precision wants a share" "$TMP/o2" || die "--precision 0: exit $r2: $(cat "$TMP/o2")"
[ $r3 = 2 ] && grep -q "below --min-iterations" "$TMP/o3" || die "max < min: exit $r3: $(cat "$TMP/o3")"
echo ok
