#!/bin/bash
# Issue 47 item 12 (fake Slurm tools): submit --array queues a node's R
# rounds as one job array (--array=1-R%1): 2 nodes x 3 rounds are 2 sbatch
# calls, not 6, with ids ARRAYID_ROUND.  The array script runs the task's
# round; status asks squeue -r and finds an ended task's scontrol record
# (ArrayJobId, ArrayTaskId); cancel, resubmit and collect take task ids.
. "$(dirname "$0")/../e2e-lib.sh"
. "$(dirname "$0")/lib/fake-slurm.sh"
S=$TMP/slurm
fake_slurm "$S"
# the jobs run the skeleton workload here: no setting changed, a lock of their own
export MMBENCH_LOCK=$TMP/lock MMBENCH_STATE=$TMP/state
printf 'experiment: f\niterations: 1\nwarmup: 0\nworkloads:\n  - name: skeleton\n' > "$TMP/f.yaml"
MMBA=$(readlink -f -- "$MMB")
F=$TMP/fl
"$MMB" fleet submit --engine slurm --nodes 2 --rounds 3 --array --dir "$F" --mmbench "$MMBA" \
	"$TMP/f.yaml" > "$TMP/sub.out" 2> "$TMP/sub.err" || { cat "$TMP/sub.out" "$TMP/sub.err"; die "submit --array"; }
cat "$TMP/sub.err"
[ "$(wc -l < "$S/sbatch.args")" = 2 ] || die "$(wc -l < "$S/sbatch.args") sbatch calls, want 2 (one per node)"
grep -q -- "--job-name=mmbench-fl-n1 .*--nodelist=node1 .*--array=1-3%1 .*$F/job-array.sh $MMBA $F/jobs 1$" \
	"$S/sbatch.args" || die "node 1's array: $(cat "$S/sbatch.args")"
grep -q -- "--nodelist=node2 .*--array=1-3%1 .*$F/job-array.sh $MMBA $F/jobs 2$" "$S/sbatch.args" ||
	die "node 2's array: $(cat "$S/sbatch.args")"
grep -q -- "--dependency" "$S/sbatch.args" && die "an array needs no dependency between its rounds"
[ "$(tr '\n' ' ' < "$TMP/sub.out")" = "101_1 102_1 101_2 102_2 101_3 102_3 " ] ||
	die "ids on stdout: $(cat "$TMP/sub.out")"
awk '$1 == "job" && $2 == 2 && $3 == 1 { print $5 }' "$F/fleet" | grep -qx 101_2 ||
	die "manifest: $(cat "$F/fleet")"
[ -x "$F/job-array.sh" ] || die "no job-array.sh"

# Slurm runs task 1 of node 2's array: the script runs round 1 of node 2
SLURM_ARRAY_TASK_ID=1 sh "$F/job-array.sh" "$MMBA" "$F/jobs" 2 || die "the array script"
grep -q '^exit 0' "$F/jobs/r1-n2/exit" || die "task 1 of node 2 did not run r1-n2: $(ls "$F/jobs/r1-n2")"
grep -q "mmbench fleet job" "$F/jobs/r1-n2/log" || die "r1-n2's log"
# node 1: task 1 failed and left the queue (scontrol remembers it), task 2 runs
echo - > "$S/squeue.state/101_1"
echo 'RUNNING|node1|None' > "$S/squeue.state/101_2"
echo 'JobId=107 ArrayJobId=101 ArrayTaskId=1 JobState=FAILED Reason=NonZeroExitCode Restarts=0 ExitCode=2:0 NodeList=node1' > "$S/scontrol.jobs"
echo 'JobId=101 ArrayJobId=101 ArrayTaskId=3 JobState=PENDING Reason=JobArrayTaskLimit Restarts=0 ExitCode=0:0 NodeList=(null)' >> "$S/scontrol.jobs"
echo - > "$S/squeue.state/102_1"
"$MMB" fleet status "$F" > "$TMP/st.out" 2>&1 || true
cat "$TMP/st.out"
grep -q "^r1-n1 *101_1 .*failed *ended without an exit file (FAILED (exit 2:0, NonZeroExitCode))" "$TMP/st.out" ||
	die "the ended task's scontrol record"
grep -q "^r2-n1 *101_2 .*running" "$TMP/st.out" || die "r2-n1 not running"
grep -q "^r1-n2 *102_1 .*done" "$TMP/st.out" || die "r1-n2 not done"
grep -q "^r3-n2 *102_3 .*pending" "$TMP/st.out" || die "r3-n2 not pending"

"$MMB" fleet cancel --job r3-n2 "$F" > "$TMP/ca.out" 2>&1 || { cat "$TMP/ca.out"; die "cancel --job r3-n2"; }
grep -qx -- "-- 102_3" "$S/scancel.log" || die "scancel: $(cat "$S/scancel.log")"
: > "$S/sbatch.args"
"$MMB" fleet resubmit --failed --job r1-n1 --mmbench "$MMBA" "$F" > "$TMP/re.out" 2>&1 ||
	{ cat "$TMP/re.out"; die "resubmit of a task"; }
cat "$TMP/re.out"
grep -q "^r1-n1: slurm job 103 on node1 (again)" "$TMP/re.out" || die "r1-n1 not queued again"
grep -q -- "--nodelist=node1 .*$F/job.sh $MMBA $F/jobs/r1-n1/args" "$S/sbatch.args" ||
	die "a resubmitted round is one job: $(cat "$S/sbatch.args")"
rc=0; "$MMB" fleet collect --db "$TMP/all.db" "$F" > "$TMP/co.out" 2>&1 || rc=$?
cat "$TMP/co.out"
grep -q "^r1-n2: 1 run merged" "$TMP/co.out" || die "collect of a task's run"
echo ok
