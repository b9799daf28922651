#!/bin/bash
# configs/quick.yaml on the running kernel: every workload in it produces
# samples (or says why it was skipped), the run is recorded completely.
. "$(dirname "$0")/../e2e-lib.sh"
cd "$(dirname "$0")/../.."
set +e
"$MMB" run configs/quick.yaml --name "quick test" > "$TMP/out" 2> "$TMP/err"
rc=$?
set -e
cat "$TMP/out" "$TMP/err"
[ "$rc" -le 1 ] || die "run exited $rc"
[ "$(q "SELECT status FROM runs")" = complete ] || die "run not complete"
[ "$(q "SELECT label FROM kernels")" = "quick test" ] || die "label not recorded"
[ "$(q "SELECT release FROM runs")" = "$(uname -r)" ] || die "release not recorded"
[ -n "$(q "SELECT config_text FROM runs")" ] || die "config text not recorded"
[ -n "$(q "SELECT cpu_model FROM machines")" ] || die "machine not recorded"
[ "$(q "SELECT count(*) FROM run_env WHERE key = 'thp.enabled'")" = 1 ] || [ ! -e /sys/kernel/mm/transparent_hugepage/enabled ] || die "THP setting not recorded"
# each workload of the file either measured or said why not
for w in $(sed -n 's/^  - name: //p' configs/quick.yaml); do
	n=$(q "SELECT count(*) FROM samples WHERE workload = '$w'")
	s=$(q "SELECT count(*) FROM iterations WHERE workload = '$w' AND status = 'skipped' AND reason != ''")
	[ "$n" -gt 0 ] || [ "$s" -gt 0 ] || die "workload $w produced nothing and no skip reason"
	echo "$w: $n samples, $s skipped"
done
# pft: the main metric, positive, with its unit and direction
[ "$(q "SELECT count(*) FROM samples WHERE workload = 'pft' AND metric = 'faults/sec' AND value > 0 AND better = 1 AND unit != ''")" -ge 3 ] || die "pft faults/sec samples"
# monitors stored as deltas
[ "$(q "SELECT count(*) FROM monitors WHERE source = 'vmstat' AND key = 'pgfault'")" -gt 0 ] || die "no vmstat deltas"
grep -q "Hmean" "$TMP/out" || die "no summary printed"
# quiet in a pipe: no progress escape sequences
! grep -q $'\033\[K' "$TMP/err" || die "progress line printed into a pipe"
