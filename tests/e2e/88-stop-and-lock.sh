#!/bin/bash
# Two faults 11-faults.sh does not cover:
#  - a polite hang: an iteration that polls should_stop() ends on the
#    timeout's SIGTERM within the grace period, is recorded as failed
#    (timed out) and the run goes on, with no stray process left;
#  - two benchmarking runs at once on one machine (same state folder): the
#    second is refused with one error naming the holder, exit 1, and records
#    nothing; the first is undisturbed.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
export MMBENCH_STATE=${MMBENCH_STATE:-$TMP/state}
cat > "$TMP/h.yaml" <<EOC
experiment: politehang
iterations: 3
warmup: 0
timeout: 1s
workloads:
  - name: faulty
    params:
      script: ok,hang-stop,ok
      state_dir: $TMP
EOC
set +e
"$MMB" run "$TMP/h.yaml" -q > /dev/null 2> "$TMP/err"
rc=$?
set -e
cat "$TMP/err"
[ "$rc" = 1 ] || die "a failed iteration should make the run exit 1, got $rc"
q "SELECT status || '|' || reason FROM iterations WHERE iteration = 2" | grep -q "^failed|timed out after 1s" ||
	die "polite hang: $(q "SELECT status, reason FROM iterations WHERE iteration = 2")"
! pgrep -f "$TMP/h.yaml" > /dev/null || die "a child outlived the run"
[ "$(q "SELECT count(*) FROM iterations WHERE status = 'ok'")" = 2 ] || die "the other iterations were not run"

# the lock
rm -f "$TMP/faulty.counter"
cat > "$TMP/slow.yaml" <<EOC
experiment: holder
iterations: 12
warmup: 0
workloads:
  - name: faulty
    params:
      script: $(printf 'slow,%.0s' $(seq 1 12))slow
      state_dir: $TMP
EOC
"$MMB" run "$TMP/slow.yaml" -q > /dev/null 2>&1 &
pid=$!
BG_PIDS=$pid
for _ in $(seq 1 100); do
	[ "$(q "SELECT count(*) FROM runs WHERE experiment = 'holder'" 2>/dev/null || echo 0)" = 1 ] && break
	sleep 0.1
done
runs=$(q "SELECT count(*) FROM runs")
set +e
"$MMB" run "$TMP/h.yaml" -q > /dev/null 2> "$TMP/err2"
rc=$?
set -e
cat "$TMP/err2"
[ "$rc" = 1 ] || die "an overlapping run should exit 1, got $rc"
[ "$(grep -c '^error:' "$TMP/err2")" = 1 ] || die "expected one error line"
grep -q "another mmbench (pid $pid) is running benchmarks" "$TMP/err2" || die "the error does not name the holder"
[ "$(q "SELECT count(*) FROM runs")" = "$runs" ] || die "the refused run recorded something"
wait "$pid" || die "the first run was disturbed"
BG_PIDS=
[ "$(q "SELECT status FROM runs WHERE experiment = 'holder'")" = complete ] || die "the holder did not complete"
echo ok
