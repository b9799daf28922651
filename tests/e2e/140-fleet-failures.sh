#!/bin/bash
# Issue 32 items 1-3, through fake Slurm tools on PATH (a real Slurm cannot
# be made to fail this way on demand):
#  1. a submit whose sbatch fails (the 3rd of 4 jobs) leaves no fleet:
#     the two jobs queued are cancelled, the manifest is kept as
#     fleet.failed, status says the submit failed (exit 1, no job
#     "pending" forever), and submitting again replaces it;
#  2. cancel with an unreachable controller (squeue and scancel fail)
#     exits 1 naming the jobs that may still run, instead of 0;
#  3. status of a fleet whose every job has an exit file does not ask
#     squeue at all (an unreachable controller made it wait ~60 s).
. "$(dirname "$0")/../e2e-lib.sh"
. "$(dirname "$0")/lib/fake-slurm.sh"
fake_slurm "$TMP"
printf 'experiment: f\niterations: 1\nwarmup: 0\nworkloads:\n  - name: skeleton\n' > "$TMP/f.yaml"
submit() {	# DIR: 2 nodes x 2 rounds
	"$MMB" fleet submit --engine slurm --nodes 2 --rounds 2 --dir "$1" \
		--mmbench "$(cd "$(dirname "$MMB")" && pwd)/mmbench" "$TMP/f.yaml"
}

# 8. what can be checked before queueing: the binary runs, the workloads exist
printf 'experiment: g\niterations: 1\nworkloads:\n  - name: no-such-workload\n' > "$TMP/g.yaml"
rc=0
"$MMB" fleet submit --engine slurm --dir "$TMP/g" "$TMP/g.yaml" > "$TMP/out" 2> "$TMP/err" || rc=$?
[ $rc = 2 ] && grep -q "workload 'no-such-workload' is not among the plugins of" "$TMP/err" ||
	die "submit of a missing workload: exit $rc: $(cat "$TMP/err")"
printf '#!/bin/sh\nexit 126\n' > "$TMP/broken-mmbench" && chmod +x "$TMP/broken-mmbench"
rc=0
"$MMB" fleet submit --engine slurm --dir "$TMP/g" --mmbench "$TMP/broken-mmbench" "$TMP/f.yaml" \
	> "$TMP/out" 2> "$TMP/err" || rc=$?
[ $rc = 2 ] && grep -q "does not run here" "$TMP/err" || die "a broken --mmbench: exit $rc: $(cat "$TMP/err")"
[ ! -e "$TMP/sbatch.n" ] && [ ! -e "$TMP/g/fleet" ] || die "a refused submit queued or left something"

# 1. the 3rd sbatch fails
rc=0
FAKE_SBATCH_FAIL_AT=3 FAKE_SBATCH_ERROR="Invalid time limit specification" submit "$TMP/fl" > "$TMP/out" 2> "$TMP/err" || rc=$?
[ $rc -ne 0 ] || die "a failed submit exited 0"
grep -q "Invalid time limit" "$TMP/err" || die "sbatch's reason not shown: $(cat "$TMP/err")"
[ ! -e "$TMP/fl/fleet" ] || die "a failed submit left a fleet: $(cat "$TMP/fl/fleet")"
[ -e "$TMP/fl/fleet.failed" ] || die "no fleet.failed: $(ls "$TMP/fl")"
# one scancel for both (issue 47 item 9)
[ "$(cat "$TMP/scancel.log")" = "-- 101 102" ] ||
	die "the queued jobs were not cancelled: $(cat "$TMP/scancel.log" 2> /dev/null)"
rc=0
"$MMB" fleet status "$TMP/fl" > "$TMP/out" 2> "$TMP/err" || rc=$?
[ $rc = 1 ] || die "status of a failed submit: exit $rc"
grep -q "its submit failed, nothing of it is queued" "$TMP/err" || die "status: $(cat "$TMP/err")"
grep -q "pending" "$TMP/out" && die "status calls a never-queued job pending: $(cat "$TMP/out")"
# a manifest with a job never queued (an older mmbench's): failed, not pending
printf 'mmbench-fleet 1\nengine slurm\njob 1 1 node1 -\n' > "$TMP/old-fleet"
mkdir -p "$TMP/old/jobs" && cp "$TMP/old-fleet" "$TMP/old/fleet"
"$MMB" fleet status "$TMP/old" > "$TMP/out" 2> "$TMP/err" || true
grep -q "never queued" "$TMP/out" || die "a job without an id: $(cat "$TMP/out")"
# submitting again replaces the failed one
rm -f "$TMP/sbatch.n"
submit "$TMP/fl" > "$TMP/out" 2> "$TMP/err" || die "submit over a failed fleet: $(cat "$TMP/err")"
[ -e "$TMP/fl/fleet" ] && [ ! -e "$TMP/fl/fleet.failed" ] || die "not replaced: $(ls "$TMP/fl")"

# fleet wait with jobs pending: gives up at --timeout, exit 5 (issue 47), saying so
rc=0
"$MMB" fleet wait --interval 1 --timeout 1 "$TMP/fl" > "$TMP/out" 2> "$TMP/err" || rc=$?
[ $rc = 5 ] && grep -q "still pending or running after 1 s" "$TMP/err" ||
	die "fleet wait --timeout: exit $rc: $(cat "$TMP/err")"
# the job names carry the fleet's name (issue 32 item 9)
grep -q -- "--job-name=mmbench-fl-r1-n1" "$TMP/sbatch.args" || die "job name: $(cat "$TMP/sbatch.args")"

# 2. cancel while the controller cannot be reached
rm -f "$TMP/scancel.log"
rc=0
FAKE_SLURM_DOWN=1 "$MMB" fleet cancel "$TMP/fl" > "$TMP/out" 2> "$TMP/err" || rc=$?
[ $rc = 1 ] || die "cancel with Slurm down: exit $rc: $(cat "$TMP/err")"
grep -q "not cancelled, may still be queued or running: 101 (r1-n1), 102 (r1-n2), 103 (r2-n1), 104 (r2-n2)" \
	"$TMP/err" || die "cancel does not name the jobs: $(cat "$TMP/err")"
# reachable again: cancelled, exit 0
"$MMB" fleet cancel "$TMP/fl" > "$TMP/out" 2> "$TMP/err" || die "cancel: $(cat "$TMP/err")"
[ "$(cat "$TMP/scancel.log")" = "-- 101 102 103 104" ] || die "not one scancel for all: $(cat "$TMP/scancel.log")"

# 7. Slurm's own end state is shown, and kept after Slurm forgets the job;
# a job that never started has no log to point at
FAKE_LEFT_QUEUE=1 FAKE_END_STATE=TIMEOUT "$MMB" fleet status "$TMP/fl" > "$TMP/out" 2> "$TMP/err" || true
grep -q "^r1-n1 .* failed .*TIMEOUT (exit 0:15, TimeLimit)" "$TMP/out" || die "end state: $(cat "$TMP/out")"
grep -q "log:" "$TMP/out" && die "a log path for a job that never started: $(cat "$TMP/out")"
FAKE_LEFT_QUEUE=1 "$MMB" fleet status "$TMP/fl" > "$TMP/out" 2> "$TMP/err" || true
grep -q "^r1-n1 .* failed .*ended without an exit file (TIMEOUT (exit 0:15, TimeLimit))" "$TMP/out" ||
	die "end state forgotten once Slurm purged the job: $(cat "$TMP/out")"

# 5. a job killed hard left THP changed on its node: the next job there
# restores it at its start (the run's own recovery), and says so in its
# folder, which status shows with the node (needs root and THP)
thp=/sys/kernel/mm/transparent_hugepage/enabled
if [ "$(id -u)" = 0 ] && [ -w "$thp" ]; then
	cur=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$thp")
	st=$TMP/node-state
	mkdir -m 700 "$st"
	sh -c 'exit 0' & dead=$!
	wait $dead
	printf '%s\tK\t%s\t%s\n' "$dead" "$thp" "$cur" > "$st/journal"
	chmod 600 "$st/journal"
	printf 'experiment: r\niterations: 1\nwarmup: 0\nworkloads:\n  - name: skeleton\n' > "$TMP/r.yaml"
	jd=$TMP/fl/jobs/r2-n2
	rm -f "$jd/exit"
	# the args file of a run job, as submit writes it (NUL-separated)
	printf 'mmbench-fleet-args 1\0run\0--db\0%s\0%s\0' "$TMP/r.db" "$TMP/r.yaml" > "$jd/args"
	MMBENCH_STATE=$st "$MMB" fleet job "$jd/args" > "$TMP/job.out" 2>&1 || true
	grep -q "restored at start, left changed on this node by an earlier run: $thp" "$jd/restored" 2> /dev/null ||
		die "restored note: $(cat "$jd/restored" "$TMP/job.out" 2> /dev/null)"
	"$MMB" fleet status "$TMP/fl" > "$TMP/out" 2> /dev/null || true
	grep -qE "node[0-9]: restored at start, left changed on this node by an earlier run: $thp" "$TMP/out" ||
		die "status does not show the restore: $(cat "$TMP/out")"
	[ ! -s "$st/journal" ] || die "the journal was not replayed: $(cat "$st/journal")"
	[ "$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$thp")" = "$cur" ] || die "THP not as it was"
fi

# 3. every job has its exit file: status does not ask Slurm
for d in "$TMP"/fl/jobs/*/; do echo "exit 1" > "$d/exit"; done
rm -f "$TMP/asked.log"
FAKE_SLURM_DOWN=1 "$MMB" fleet status "$TMP/fl" > "$TMP/out" 2> "$TMP/err" || true
[ ! -e "$TMP/asked.log" ] || die "status asked Slurm although every job had ended: $(cat "$TMP/asked.log")"
grep -q "4 jobs: 0 pending, 0 running, 0 done, 4 failed" "$TMP/out" || die "status: $(cat "$TMP/out")"
grep -q "cannot be asked" "$TMP/err" && die "status warned about the engine: $(cat "$TMP/err")"

# 4. a run that finished with some iterations failed (exit 1) is merged,
# its failed iterations counted; a job without a finished run is not
cat > "$TMP/part.yaml" << EOC
experiment: part
iterations: 3
warmup: 0
workloads:
  - name: faulty
    params: { script: "ok,fail,ok", state_dir: "$TMP" }
EOC
rc=0
MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins "$MMB" run --db "$TMP/fl/jobs/r1-n1/run.db" \
	--name part "$TMP/part.yaml" -q > /dev/null 2>&1 || rc=$?
[ $rc = 1 ] || die "the partly failed run exited $rc, want 1"
rc=0
"$MMB" fleet collect --db "$TMP/all.db" "$TMP/fl" > "$TMP/out" 2> "$TMP/err" || rc=$?
[ $rc = 1 ] || die "collect with failed jobs: exit $rc"
grep -q "^r1-n1: job failed (mmbench exited 1), 1 run merged with 2 finished iterations, 1 failed" \
	"$TMP/out" || die "partial run: $(cat "$TMP/out" "$TMP/err")"
grep -q "r1-n2: job .* failed: mmbench exited 1; nothing merged" "$TMP/err" || die "$(cat "$TMP/err")"
[ "$(sqlite3 "$TMP/all.db" "SELECT count(*) FROM iterations WHERE status = 'ok'")" = 2 ] ||
	die "the finished iterations were not merged"
echo ok
