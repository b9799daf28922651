#!/bin/bash
# Issue 47 items 1-3 and 9, through fake Slurm tools on PATH:
#  1. sbatch fails at the 3rd of 4 jobs and scancel fails too: the submit
#     does not claim it cancelled anything; the manifest keeps the 2 ids,
#     status says they may be queued, a new submit into the folder is
#     refused until `fleet cancel` has taken them out, then accepted;
#  2. status with the controller down, or hung: exit 3 (engine not
#     reachable), each Slurm call bounded (MMBENCH_FLEET_TOOL_TIMEOUT);
#  3. wait --timeout bounds the whole wait: a hung squeue gets what is
#     left of it, and wait exits 5;
#  8. submit prints the job ids on stdout; status --json;
# 11. sbatch options a cluster user needs, and --sbatch-arg, pass through;
#     options submit sets itself are refused; --exclude and --nodelist.
# Nothing asserts on elapsed time: the bound used is in the message.
. "$(dirname "$0")/../e2e-lib.sh"
. "$(dirname "$0")/lib/fake-slurm.sh"
fake_slurm "$TMP"
printf 'experiment: f\niterations: 1\nwarmup: 0\nworkloads:\n  - name: skeleton\n' > "$TMP/f.yaml"
submit() {	# DIR: 2 nodes x 2 rounds
	"$MMB" fleet submit --engine slurm --nodes 2 --rounds 2 --dir "$1" \
		--mmbench "$(cd "$(dirname "$MMB")" && pwd)/mmbench" "$TMP/f.yaml"
}

# 1. a rollback that cannot cancel says so, and keeps the ids
rc=0
FAKE_SBATCH_FAIL_AT=3 FAKE_CANCEL_FAIL=1 submit "$TMP/fl" > "$TMP/out" 2> "$TMP/err" || rc=$?
[ $rc -ne 0 ] || die "a failed submit exited 0"
grep -q "were cancelled\|nothing of this submit is queued" "$TMP/err" &&
	die "claims a cancel that failed: $(cat "$TMP/err")"
grep -q "cancelling the 2 jobs submitted before failed: 101 (r1-n1), 102 (r1-n2) may still be queued" "$TMP/err" ||
	die "the jobs left queued are not named: $(cat "$TMP/err")"
grep -q "2 jobs of this submit may still be queued" "$TMP/err" || die "no way out said: $(cat "$TMP/err")"
[ -e "$TMP/fl/fleet" ] && grep -q "101" "$TMP/fl/fleet" || die "the ids are not kept: $(ls "$TMP/fl")"
rc=0
"$MMB" fleet status "$TMP/fl" > "$TMP/out" 2> "$TMP/err" || rc=$?
grep -q "^submit failed: .*may still be queued" "$TMP/out" || die "status does not say: $(cat "$TMP/out")"
grep -q "^r1-n1 .*101 .*pending" "$TMP/out" || die "status does not reach job 101: $(cat "$TMP/out")"
rc=0
submit "$TMP/fl" > "$TMP/out" 2> "$TMP/err" || rc=$?
[ $rc -ne 0 ] && grep -q "holds a failed submit whose jobs may still be queued" "$TMP/err" ||
	die "a new submit beside jobs that may be queued: exit $rc: $(cat "$TMP/err")"
rc=0
FAKE_CANCEL_FAIL=1 "$MMB" fleet cancel "$TMP/fl" > /dev/null 2> "$TMP/err" || rc=$?
[ $rc = 1 ] || die "cancel with scancel failing: exit $rc"
"$MMB" fleet cancel "$TMP/fl" > /dev/null 2> "$TMP/err" || die "cancel: $(cat "$TMP/err")"
[ "$(cat "$TMP/scancel.log")" = "-- 101 102" ] || die "not one scancel for both: $(cat "$TMP/scancel.log")"
grep -q "the failed submit's jobs are gone" "$TMP/err" || die "cancel: $(cat "$TMP/err")"
rm -f "$TMP/sbatch.n"
submit "$TMP/fl" > "$TMP/out" 2> "$TMP/err" || die "submit after the cancel: $(cat "$TMP/err")"
# 8. the ids on stdout, one a line, nothing else
[ "$(cat "$TMP/out")" = "$(printf '101\n102\n103\n104')" ] || die "submit's stdout: $(cat "$TMP/out")"

# 2. status when Slurm cannot be asked: exit 3, said; a hung squeue is stopped
rc=0
FAKE_SLURM_DOWN=1 "$MMB" fleet status "$TMP/fl" > "$TMP/out" 2> "$TMP/err" || rc=$?
[ $rc = 3 ] && grep -q "the engine did not answer: 4 jobs without an exit file are unknown (exit 3)" "$TMP/out" ||
	die "status, controller down: exit $rc: $(cat "$TMP/out" "$TMP/err")"
rc=0
FAKE_HANG=1 MMBENCH_FLEET_TOOL_TIMEOUT=1 "$MMB" fleet status "$TMP/fl" > "$TMP/out" 2> "$TMP/err" || rc=$?
[ $rc = 3 ] && grep -q "squeue: no answer in 1 s" "$TMP/err" ||
	die "status, controller hung: exit $rc: $(cat "$TMP/err")"

# 3. wait --timeout is the bound: the hung squeue got what was left of 2 s
rc=0
FAKE_HANG=1 "$MMB" fleet wait --interval 1 --timeout 2 "$TMP/fl" > "$TMP/out" 2> "$TMP/err" || rc=$?
[ $rc = 5 ] || die "wait --timeout with a hung squeue: exit $rc: $(cat "$TMP/err")"
awk '/squeue: no answer in/ { for (i = 1; i <= NF; i++) if ($i == "in") v = $(i + 1); ok = v + 0 <= 2 }
     END { exit !ok }' "$TMP/err" || die "squeue was given more than wait had left: $(cat "$TMP/err")"
grep -q "still pending or running after 2 s" "$TMP/err" || die "wait: $(cat "$TMP/err")"
# not on a terminal, wait says each change on a line of its own
grep -q "of 4 jobs ended" "$TMP/out" || die "wait printed no progress line: $(cat "$TMP/out")"
# 8. status --json: one object a script can read
rc=0
"$MMB" fleet status --json "$TMP/fl" > "$TMP/st.json" 2> /dev/null || rc=$?
python3 - "$TMP/st.json" $rc << 'PY' || die "status --json: $(cat "$TMP/st.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["exit"] == int(sys.argv[2]) and d["engine"] == "slurm", d
assert [j["job"] for j in d["jobs"]] == ["r1-n1", "r1-n2", "r2-n1", "r2-n2"], d
assert all(j["state"] == "pending" and j["id"] for j in d["jobs"]), d
assert d["pending"] == 4 and d["done"] == 0, d
PY

# 14. a node busy with something else: status says so per node, from the
# job's log (bounded, control bytes escaped)
j=$TMP/fl/jobs/r1-n1
printf 'warning: skeleton iteration 1 disturbed: foreign CPU 48%% of 2 CPUs (limit 10%%)\e[31m\n' > "$j/log"
printf 'error: run 1: every iteration of skeleton value was disturbed (3 values left out)\n' >> "$j/log"
echo "exit 1" > "$j/exit"
"$MMB" fleet status "$TMP/fl" > "$TMP/out" 2> /dev/null || true
grep -q "^ *node1: every iteration disturbed: foreign CPU 48% of 2 CPUs (limit 10%)\\\\x1b\[31m$" "$TMP/out" ||
	die "the busy node is not said: $(cat -v "$TMP/out")"

# 13. one job: resubmit --job while the others are pending, cancel --job
rc=0
"$MMB" fleet resubmit --job r1-n1 --mmbench "$(cd "$(dirname "$MMB")" && pwd)/mmbench" "$TMP/fl" \
	> "$TMP/out" 2> "$TMP/err" || rc=$?
[ $rc = 0 ] && grep -q "^r1-n1: slurm job 105 on node1 (again)" "$TMP/out" ||
	die "resubmit --job: exit $rc: $(cat "$TMP/out" "$TMP/err")"
rm -f "$TMP/scancel.log"
"$MMB" fleet cancel --job r2-n1 --job 104 "$TMP/fl" > /dev/null 2> "$TMP/err" || die "cancel --job: $(cat "$TMP/err")"
[ "$(cat "$TMP/scancel.log")" = "-- 103 104" ] || die "cancel --job cancelled: $(cat "$TMP/scancel.log")"
rc=0
"$MMB" fleet cancel --job r9-n9 "$TMP/fl" > /dev/null 2> "$TMP/err" || rc=$?
[ $rc = 2 ] && grep -q "^error: --job r9-n9: no job of" "$TMP/err" || die "cancel --job r9-n9: exit $rc"

# 10. jobs slurmctld forgot: their final state from sacct where accounting exists
FAKE_LEFT_QUEUE=1 "$MMB" fleet status "$TMP/fl" > "$TMP/out" 2> /dev/null || true
grep -q "^r1-n2 .*unknown to the engine and no exit file" "$TMP/out" || die "without sacct: $(cat "$TMP/out")"
FAKE_LEFT_QUEUE=1 FAKE_SACCT=1 "$MMB" fleet status "$TMP/fl" > "$TMP/out" 2> /dev/null || true
grep -q "^r1-n2 .*failed .*CANCELLED by 0 (exit 0:0, from sacct)" "$TMP/out" ||
	die "sacct's final state not used: $(cat "$TMP/out")"

# 11. sbatch options pass through; submit's own are refused
rm -f "$TMP/sbatch.args" "$TMP/sbatch.n"
"$MMB" fleet submit --engine slurm --nodes 1 --dir "$TMP/opts" --account acct1 --qos high \
	--reservation res1 --begin now+1hour --dependency afterok:99 --no-requeue \
	--sbatch-arg=--mail-type=END --exclude node1 \
	--mmbench "$(cd "$(dirname "$MMB")" && pwd)/mmbench" "$TMP/f.yaml" > /dev/null 2> "$TMP/err" ||
	die "submit with sbatch options: $(cat "$TMP/err")"
for o in --account=acct1 --qos=high --reservation=res1 --begin=now+1hour --dependency=afterok:99 \
	--no-requeue --mail-type=END --nodelist=node2; do
	grep -q -- "$o" "$TMP/sbatch.args" || die "$o not passed to sbatch: $(cat "$TMP/sbatch.args")"
done
for bad in --sbatch-arg=--output=/tmp/x --sbatch-arg=--chdir=/ --sbatch-arg=mail; do
	rc=0
	"$MMB" fleet submit --engine slurm --dir "$TMP/bad" "$bad" "$TMP/f.yaml" > /dev/null 2> "$TMP/err" || rc=$?
	[ $rc = 2 ] && grep -q "^error: --sbatch-arg" "$TMP/err" || die "$bad: exit $rc: $(cat "$TMP/err")"
done
echo ok
