#!/bin/bash
# Issue 47 item 6 (fake Slurm tools): a job's run with a failed iteration
# is collected (its 2 finished iterations), then `resubmit` reruns it and
# the rerun is done.  The next collect replaces the partial run in the
# target DB with the rerun's (the partial one stays in run.db.1), so
# compare pools only the complete rerun, and says so.
. "$(dirname "$0")/../e2e-lib.sh"
. "$(dirname "$0")/lib/fake-slurm.sh"
fake_slurm "$TMP/slurm"
# the jobs run a test workload here: no setting changed, a lock of their own
export MMBENCH_LOCK=$TMP/lock MMBENCH_STATE=$TMP/state
# faulty alone: submit asks `list workloads`, which the loader-test plugins beside it fail
mkdir -p "$TMP/plugins"
cp "$MMBENCH_BUILD/tests/plugins/faulty.so" "$TMP/plugins/"
export MMBENCH_PLUGIN_PATH=$TMP/plugins
# iteration 2 of the first attempt fails; the counter goes on, the rerun's pass
cat > "$TMP/part.yaml" << EOC
experiment: part
iterations: 3
warmup: 0
workloads:
  - name: faulty
    params: { script: "ok,fail,ok", state_dir: "$TMP" }
EOC
F=$TMP/fl
"$MMB" fleet submit --engine slurm --nodes 1 --name base --dir "$F" \
	--mmbench "$(readlink -f -- "$MMB")" "$TMP/part.yaml" > "$TMP/sub.out" 2>&1 ||
	{ cat "$TMP/sub.out"; die "submit"; }
rc=0; "$MMB" fleet job "$F/jobs/r1-n1/args" > "$TMP/job.out" 2>&1 || rc=$?
[ $rc = 1 ] || { cat "$TMP/job.out"; die "the first attempt exited $rc, want 1"; }
export FAKE_LEFT_QUEUE=1
rc=0; "$MMB" fleet collect --db "$TMP/all.db" "$F" > "$TMP/co.out" 2>&1 || rc=$?
cat "$TMP/co.out"
grep -q "^r1-n1: job failed (mmbench exited 1), 1 run merged with 2 finished iterations" \
	"$TMP/co.out" || die "the partial run was not collected"
"$MMB" fleet resubmit "$F" > "$TMP/re.out" 2>&1 || { cat "$TMP/re.out"; die "resubmit"; }
"$MMB" fleet job "$F/jobs/r1-n1/args" > "$TMP/job.out" 2>&1 || { cat "$TMP/job.out"; die "the rerun failed"; }
rc=0; "$MMB" fleet collect --db "$TMP/all.db" "$F" > "$TMP/co.out" 2>&1 || rc=$?
cat "$TMP/co.out"
[ $rc = 0 ] || die "collect after the rerun: exit $rc, want 0"
grep -q "^r1-n1: 1 run merged" "$TMP/co.out" || die "the rerun was not merged"
grep -q "^r1-n1: replaced 1 run of an earlier attempt ($F/jobs/r1-n1/run.db.1, kept there): compare pools the rerun only" \
	"$TMP/co.out" || die "collect does not say it replaced the partial run"
[ "$(command sqlite3 "$TMP/all.db" "SELECT count(*) FROM runs")" = 1 ] ||
	die "the target DB holds $(command sqlite3 "$TMP/all.db" "SELECT count(*) FROM runs") runs for one node"
[ "$(command sqlite3 "$TMP/all.db" "SELECT count(*) FROM iterations WHERE status = 'ok'")" = 3 ] ||
	die "the rerun's 3 iterations are not what is pooled"
[ -e "$F/jobs/r1-n1/run.db.1" ] || die "the partial attempt is not kept in the folder"
# collecting again changes nothing
"$MMB" fleet collect --db "$TMP/all.db" "$F" > "$TMP/co.out" 2>&1 || { cat "$TMP/co.out"; die "collect again"; }
grep -q "replaced" "$TMP/co.out" && die "collect again replaced something: $(cat "$TMP/co.out")"
[ "$(command sqlite3 "$TMP/all.db" "SELECT count(*) FROM runs")" = 1 ] || die "collect again"
echo ok
