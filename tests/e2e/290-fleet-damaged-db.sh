#!/bin/bash
# Issue 47 item 7: a damaged page in one node's run.db (fake Slurm tools).
# status shows that job failed, saying its run.db is damaged (not "done");
# collect names the node's DB, not "the target DB is malformed", and
# merges the other node's run.
. "$(dirname "$0")/../e2e-lib.sh"
. "$(dirname "$0")/lib/fake-slurm.sh"
fake_slurm "$TMP/slurm"
# the jobs run the skeleton workload here: no setting changed, a lock of their own
export MMBENCH_LOCK=$TMP/lock MMBENCH_STATE=$TMP/state
printf 'experiment: f\niterations: 2\nwarmup: 0\nworkloads:\n  - name: skeleton\n' > "$TMP/f.yaml"
F=$TMP/fl
"$MMB" fleet submit --engine slurm --nodes 2 --dir "$F" --mmbench "$(readlink -f -- "$MMB")" \
	"$TMP/f.yaml" > "$TMP/sub.out" 2>&1 || { cat "$TMP/sub.out"; die "submit"; }
for t in r1-n1 r1-n2; do
	"$MMB" fleet job "$F/jobs/$t/args" > "$TMP/job.out" 2>&1 || { cat "$TMP/job.out"; die "fleet job $t failed here"; }
done
# garbage over the root page of r1-n2's iterations table
db=$F/jobs/r1-n2/run.db
ps=$(command sqlite3 "$db" 'PRAGMA page_size')
root=$(command sqlite3 "$db" "SELECT rootpage FROM sqlite_master WHERE name = 'iterations'")
head -c "$ps" /dev/urandom | dd of="$db" bs="$ps" seek=$((root - 1)) count=1 conv=notrunc 2> /dev/null

rc=0; FAKE_LEFT_QUEUE=1 "$MMB" fleet status "$F" > "$TMP/st.out" 2>&1 || rc=$?
cat "$TMP/st.out"
grep -q "^r1-n2 .* failed *run.db damaged (.*): $db" "$TMP/st.out" ||
	die "status does not say r1-n2's run.db is damaged"
grep -q "^r1-n1 .* done" "$TMP/st.out" || die "r1-n1 not done"
[ $rc = 1 ] || die "status exit $rc, want 1 (a job failed with nothing to collect)"

rc=0; FAKE_LEFT_QUEUE=1 "$MMB" fleet collect --db "$TMP/all.db" "$F" > "$TMP/co.out" 2>&1 || rc=$?
cat "$TMP/co.out"
[ $rc = 1 ] || die "collect exit $rc, want 1"
grep -q "all.db.*malformed" "$TMP/co.out" && die "blames the target DB"
grep -q "r1-n2.*run.db damaged.*$db" "$TMP/co.out" || die "collect does not name the node's DB"
grep -q "^r1-n1: 1 run merged" "$TMP/co.out" || die "r1-n1 not merged"

# mmbench merge of the damaged file: the file is named, the target untouched
rc=0; "$MMB" merge --db "$TMP/all.db" "$db" > "$TMP/m.out" 2>&1 || rc=$?
cat "$TMP/m.out"
[ $rc = 2 ] || die "merge of a damaged file: exit $rc, want 2"
grep -q "cannot merge $db: the file is damaged" "$TMP/m.out" || die "merge does not name the damaged file"
echo ok
