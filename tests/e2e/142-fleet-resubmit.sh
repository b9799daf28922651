#!/bin/bash
# Issue 32 item 4: `fleet resubmit [--failed]` queues again, each on its
# node, the jobs that did not finish, through fake Slurm tools on PATH.  One
# job is done (its args run here by `mmbench fleet job`), one failed on its
# node; resubmit queues only the failed one (its run.db kept as run.db.1, its
# exit file gone), refuses while a job is still pending unless --failed.
. "$(dirname "$0")/../e2e-lib.sh"
. "$(dirname "$0")/lib/fake-slurm.sh"
fake_slurm "$TMP"
printf 'experiment: f\niterations: 1\nwarmup: 0\nworkloads:\n  - name: skeleton\n' > "$TMP/f.yaml"
MMBA=$(readlink -f -- "$MMB")
F=$TMP/fl
"$MMB" fleet submit --engine slurm --nodes 2 --dir "$F" --mmbench "$MMBA" "$TMP/f.yaml" > "$TMP/sub.out" 2>&1 ||
	{ cat "$TMP/sub.out"; die "submit"; }
# r1-n1 runs here and is done; r1-n2 failed on its node, leaving a run.db
"$MMB" fleet job "$F/jobs/r1-n1/args" > /dev/null 2>&1 || die "fleet job r1-n1 failed here"
grep -q '^exit 0' "$F/jobs/r1-n1/exit" || die "r1-n1's exit record"
cp "$F/jobs/r1-n1/run.db" "$F/jobs/r1-n2/run.db"
printf 'exit 1\nhost node2\n' > "$F/jobs/r1-n2/exit"

# nothing to resubmit for a bad folder; a bad option is a usage error
rc=0; "$MMB" fleet resubmit "$TMP/nofleet" > /dev/null 2>&1 || rc=$?
[ $rc = 1 ] || die "resubmit of no fleet: exit $rc, want 1"
rc=0; "$MMB" fleet resubmit --nosuch "$F" > /dev/null 2>&1 || rc=$?
[ $rc = 2 ] || die "resubmit --nosuch: exit $rc, want 2"

rc=0
FAKE_LEFT_QUEUE=1 "$MMB" fleet status "$F" > "$TMP/st.out" || rc=$?
# the failed job left finished iterations: exit 4, collect merges them (issue 47 item 5)
[ $rc = 4 ] && grep -q "1 done, 1 failed" "$TMP/st.out" || { cat "$TMP/st.out"; die "before: status"; }
: > "$TMP/sbatch.args"
FAKE_LEFT_QUEUE=1 "$MMB" fleet resubmit "$F" > "$TMP/re.out" 2>&1 || { cat "$TMP/re.out"; die "resubmit"; }
cat "$TMP/re.out"
grep -q "^r1-n2: slurm job 103 on node2 (again)" "$TMP/re.out" || die "r1-n2 not queued again"
grep -q "^1 of 2 jobs queued again" "$TMP/re.out" || die "resubmit summary"
[ "$(wc -l < "$TMP/sbatch.args")" = 1 ] || die "resubmit queued $(wc -l < "$TMP/sbatch.args") jobs, want 1"
grep -q -- "--nodelist=node2 " "$TMP/sbatch.args" || die "not pinned to node2: $(cat "$TMP/sbatch.args")"
grep -q -- "--job-name=mmbench-fl-r1-n2 " "$TMP/sbatch.args" || die "job name: $(cat "$TMP/sbatch.args")"
[ -e "$F/jobs/r1-n2/run.db.1" ] && [ ! -e "$F/jobs/r1-n2/run.db" ] || die "the old run.db is not kept as run.db.1"
[ ! -e "$F/jobs/r1-n2/exit" ] || die "the old exit record stayed"
[ -e "$F/jobs/r1-n1/run.db" ] && [ -e "$F/jobs/r1-n1/exit" ] || die "the done job was touched"
awk '$1 == "job" && $2 == 1 && $3 == 2 { print $5 }' "$F/fleet" | grep -qx 103 ||
	die "manifest: $(cat "$F/fleet")"

# r1-n2 now pending (the fake squeue says so): resubmit refuses, --failed has nothing to do
"$MMB" fleet status "$F" > "$TMP/st.out" || true
grep -q "^r1-n2 .*pending" "$TMP/st.out" || { cat "$TMP/st.out"; die "r1-n2 not pending again"; }
rc=0; "$MMB" fleet resubmit "$F" > "$TMP/re.out" 2>&1 || rc=$?
[ $rc = 1 ] && grep -q "still pending or running" "$TMP/re.out" || { cat "$TMP/re.out"; die "resubmit with a pending job: exit $rc"; }
"$MMB" fleet resubmit --failed "$F" > "$TMP/re.out" 2>&1 || { cat "$TMP/re.out"; die "resubmit --failed"; }
grep -q "^0 of 2 jobs queued again" "$TMP/re.out" || die "resubmit --failed queued something"
[ "$(wc -l < "$TMP/sbatch.args")" = 1 ] || die "resubmit --failed called sbatch"
