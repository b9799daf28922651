#!/bin/bash
# Issue 27 item 9: a run writing into a database another process holds the
# write lock of (a long rm) waits for the lock instead of losing its
# finished iterations ("database is locked", 2 of 30 kept, exit 1).  rm's
# transaction is held 15 s here, longer than SQLite's 10 s busy timeout.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
printf 'workload,metric,variant,iteration,value\nw,m,,1,1\n' > "$TMP/a.csv"
"$MMB" import --name gone "$TMP/a.csv" > /dev/null
"$MMB" import --name kept "$TMP/a.csv" > /dev/null
[ "$(q "SELECT count(*) FROM sqlite_master WHERE name = 'sample_values_by_iteration'")" = 1 ] ||
	die "no index on sample_values(iteration_id): rm scans every sample per run"
cat > "$TMP/c.yaml" <<EOC
experiment: lock
iterations: 4
warmup: 0
workloads:
  - name: spin
    params: { threads: 1, ms: 5 }
EOC
MMBENCH_TEST_RM_SLEEP=15 "$MMB" rm --yes --label gone 2> "$TMP/rm.err" &
rm_pid=$!
BG_PIDS="$BG_PIDS $rm_pid"
for _ in $(seq 1 200); do grep -q "will remove" "$TMP/rm.err" && break; sleep 0.1; done
sleep 1	# rm is inside its transaction (it sleeps there)
run --name new "$TMP/c.yaml"
[ $rc = 0 ] || die "run beside a long rm: exit $rc: $(cat "$TMP/err")"
wait $rm_pid || die "rm failed: $(cat "$TMP/rm.err")"
[ "$(q "SELECT count(*) FROM iterations i JOIN runs r ON r.id = i.run_id JOIN kernels k
	ON k.id = r.kernel_id WHERE k.label = 'new' AND i.status = 'ok'")" = 4 ] ||
	die "iterations lost: $(q "SELECT status, count(*) FROM iterations GROUP BY 1")"
[ "$(q "SELECT status FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE k.label = 'new'")" = complete ] ||
	die "run not complete"
[ "$(q "SELECT count(*) FROM kernels WHERE label = 'gone'")" = 0 ] || die "rm did not remove"
echo ok
