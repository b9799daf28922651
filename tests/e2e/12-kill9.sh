#!/bin/bash
# kill -9 of the harness mid-run: the DB passes integrity_check, finished
# iterations are kept, and the run shows as interrupted afterwards.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
cat > "$TMP/f.yaml" <<EOC
experiment: kill9
iterations: 200
warmup: 0
workloads:
  - name: faulty
    params:
      script: $(printf 'slow,%.0s' $(seq 1 200))slow
      state_dir: $TMP
EOC
"$MMB" run "$TMP/f.yaml" -q > /dev/null 2>&1 &
pid=$!
BG_PIDS="$BG_PIDS $pid"
for _ in $(seq 1 100); do
	n=$(q "SELECT count(*) FROM iterations" 2>/dev/null || echo 0)
	[ "${n:-0}" -ge 3 ] && break
	sleep 0.2
done
[ "${n:-0}" -ge 3 ] || die "iterations were not committed while running"
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
sleep 0.5
! pgrep -f "$TMP/f.yaml" >/dev/null || die "iteration child outlived the killed harness"
[ "$(sqlite3 "$MMBENCH_DB" "PRAGMA integrity_check")" = ok ] || die "integrity_check failed"
kept=$(q "SELECT count(*) FROM samples")
[ "$kept" -ge 3 ] || die "finished iterations lost ($kept samples)"
# a reader shows the dead run interrupted without writing the file;
# the next writer marks it so
"$MMB" list runs | grep -q interrupted || die "run not shown interrupted"
[ "$(q "SELECT status FROM runs")" = running ] || die "a reader wrote the file"
printf 'workload,metric,variant,iteration,value\nw,m,,1,1\n' > "$TMP/one.csv"
"$MMB" import --name other "$TMP/one.csv" > /dev/null
[ "$(q "SELECT status FROM runs WHERE id = 1")" = interrupted ] || die "status not interrupted"
# the runner's rows of the killed run: kept as rows while it might go on,
# packed into blocks by the writer that found it ended (schema migration 11)
[ "$(q "SELECT count(*) FROM sample_values WHERE run_id = 1")" = 0 ] || die "the interrupted run's rows were not packed"
[ "$(q "SELECT count(*) FROM samples WHERE run_id = 1")" = "$kept" ] || die "packing lost samples"
# the killed iteration's cgroup (cgroup v2) is journaled: restore removes it
"$MMB" restore > /dev/null
[ -z "$(find /sys/fs/cgroup -maxdepth 6 -type d -name "mmbench-$pid-*" 2>/dev/null)" ] ||
	die "the killed run's iteration cgroup is left"
echo "kept $kept samples"
