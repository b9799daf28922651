#!/bin/bash
# Issue 47 item 4: a node lost mid-run (fake Slurm tools).  While Slurm
# still says RUNNING, status says the node is not responding (sinfo).  r1-n2's first
# attempt leaves an empty interrupted run and no exit file; Slurm requeues
# it (PENDING, BeginTime, Restarts=1).  status (text and --json) says it
# was requeued; `wait --stall` gives up on it; the rerun keeps the first
# attempt's run.db aside (run.db.1), so collect merges one run, not the
# empty one beside it.
. "$(dirname "$0")/../e2e-lib.sh"
. "$(dirname "$0")/lib/fake-slurm.sh"
S=$TMP/slurm
fake_slurm "$S"
# the jobs run the skeleton workload here: no setting changed, a lock of their own
export MMBENCH_LOCK=$TMP/lock MMBENCH_STATE=$TMP/state
printf 'experiment: f\niterations: 2\nwarmup: 0\nworkloads:\n  - name: skeleton\n' > "$TMP/f.yaml"
F=$TMP/fl
"$MMB" fleet submit --engine slurm --nodes 2 --dir "$F" --mmbench "$(readlink -f -- "$MMB")" \
	"$TMP/f.yaml" > "$TMP/sub.out" 2>&1 || { cat "$TMP/sub.out"; die "submit"; }
job() {	# TAG: its fleet job, here
	"$MMB" fleet job "$F/jobs/$1/args" > "$TMP/job.out" 2>&1 || { cat "$TMP/job.out"; die "fleet job $1"; }
}
job r1-n1
# node2 stops answering under r1-n2: Slurm still says RUNNING, sinfo "alloc*"
echo 'RUNNING|node2|None' > "$S/squeue.state/102"
printf 'node1|(null)|idle\nnode2|(null)|alloc*\n' > "$S/sinfo.out"
"$MMB" fleet status "$F" > "$TMP/st.out" 2>&1 || true
cat "$TMP/st.out"
grep -q "^r1-n2 .*running *RUNNING; node node2 down or not responding (alloc\*)" "$TMP/st.out" ||
	die "status does not say r1-n2's node is not responding"
rm "$S/sinfo.out"
# r1-n2's node died mid-run: an interrupted run without iterations, no exit record
job r1-n2
rm "$F/jobs/r1-n2/exit"
command sqlite3 "$F/jobs/r1-n2/run.db" "DELETE FROM sample_values; DELETE FROM sample_blocks;
	DELETE FROM iterations; UPDATE runs SET status = 'interrupted'"
# slurmctld requeued it: pending until its begin time, Restarts=1
echo 'PENDING|(null)|BeginTime' > "$S/squeue.state/102"
echo 'JobId=101 JobName=mmbench-fl-r1-n1 JobState=COMPLETED Reason=None Restarts=0 ExitCode=0:0 NodeList=node1' > "$S/scontrol.jobs"
echo 'JobId=102 JobName=mmbench-fl-r1-n2 JobState=PENDING Reason=BeginTime Requeue=1 Restarts=1 ExitCode=0:0 NodeList=(null)' >> "$S/scontrol.jobs"

"$MMB" fleet status "$F" > "$TMP/st.out" 2>&1 || true
cat "$TMP/st.out"
grep -q "^r1-n2 .*pending *PENDING (BeginTime)" "$TMP/st.out" || die "r1-n2 not pending"
grep -q "requeued 1 time by slurm (its node failed or it was preempted)" "$TMP/st.out" ||
	die "status does not say r1-n2 was requeued"
"$MMB" fleet status --json "$F" > "$TMP/st.json" || true
python3 -c '
import json, sys
j = {x["job"]: x for x in json.load(open(sys.argv[1]))["jobs"]}
assert j["r1-n2"]["restarts"] == 1 and j["r1-n1"]["restarts"] == 0, j
' "$TMP/st.json" || die "status --json restarts: $(cat "$TMP/st.json")"

# nothing changes: wait gives up on it after --stall, exit 5, naming it
rc=0; timeout 300 "$MMB" fleet wait --interval 1 --stall 2 "$F" > "$TMP/w.out" 2>&1 || rc=$?
cat "$TMP/w.out"
[ $rc = 5 ] || die "wait --stall: exit $rc, want 5"
grep -q "no job changed for 2 s (--stall), given up on: r1-n2 (pending: PENDING (BeginTime), requeued)" \
	"$TMP/w.out" || die "wait --stall does not name the stuck job"
rc=0; "$MMB" fleet wait --stall -1 "$F" > /dev/null 2>&1 || rc=$?
[ $rc = 2 ] || die "wait --stall -1: exit $rc, want 2"

# the node came back and the job reran: the first attempt's run.db is kept aside
SLURM_RESTART_COUNT=1 job r1-n2
grep -q "a rerun; the earlier attempt's results kept as $F/jobs/r1-n2/run.db.1" "$TMP/job.out" ||
	die "the rerun does not say it kept the earlier attempt: $(cat "$TMP/job.out")"
[ -e "$F/jobs/r1-n2/run.db.1" ] || die "no run.db.1"
[ "$(command sqlite3 "$F/jobs/r1-n2/run.db" 'SELECT count(*) FROM runs')" = 1 ] ||
	die "the rerun's run.db holds more than its run"
FAKE_LEFT_QUEUE=1 "$MMB" fleet status "$F" > "$TMP/st.out" 2>&1 || die "status after the rerun"
cat "$TMP/st.out"
grep -q "^r1-n2 .*done" "$TMP/st.out" || die "r1-n2 not done after its rerun"
grep -q "requeued 1 time.*kept as $F/jobs/r1-n2/run.db.1, not collected" "$TMP/st.out" ||
	die "status does not say where the interrupted attempt went"
FAKE_LEFT_QUEUE=1 "$MMB" fleet collect --db "$TMP/all.db" "$F" > "$TMP/co.out" 2>&1 ||
	{ cat "$TMP/co.out"; die "collect"; }
cat "$TMP/co.out"
grep -q "^r1-n2: 1 run merged" "$TMP/co.out" || die "r1-n2: not one run merged"
[ "$(command sqlite3 "$TMP/all.db" "SELECT count(*) FROM runs WHERE status = 'interrupted'")" = 0 ] ||
	die "the empty interrupted run was merged"
echo ok
