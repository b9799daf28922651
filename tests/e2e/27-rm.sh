#!/bin/bash
# rm: says what goes, refuses without a terminal unless --yes, removes a
# run with every row of it (and its label when left empty) in one
# transaction: kill -9 inside it leaves the DB as before.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
FIX=$(cd "$(dirname "$0")/../fixtures" && pwd)
for l in run-a run-b; do
	mkdir -p "$TMP/st-$l"
	cat > "$TMP/f.yaml" <<EOC
experiment: rm-$l
iterations: 3
warmup: 0
workloads:
  - name: faulty
    params:
      script: ok,ok,ok
      state_dir: $TMP/st-$l
EOC
	run --name $l "$TMP/f.yaml"
	[ $rc -eq 0 ] || die "run $l: $(cat "$TMP/err")"
done
"$MMB" -q import --name imp "$FIX/compare/aim9-base.csv"
all() { q "SELECT (SELECT count(*) FROM runs) || ' ' || (SELECT count(*) FROM iterations) || ' ' ||
	(SELECT count(*) FROM samples) || ' ' || (SELECT count(*) FROM monitors) || ' ' ||
	(SELECT count(*) FROM run_env) || ' ' || (SELECT group_concat(label) FROM kernels)"; }
of_run() { q "SELECT (SELECT count(*) FROM iterations WHERE run_id = $1) + (SELECT count(*) FROM samples WHERE run_id = $1) +
	(SELECT count(*) FROM run_env WHERE run_id = $1) + (SELECT count(*) FROM monitors o JOIN iterations i ON i.id = o.iteration_id WHERE i.run_id = $1)"; }
before=$(all)
[ "$(of_run 2)" -gt 0 ] || die "run 2 recorded nothing"

expect() {	# rc, message, args...
	local want=$1 msg=$2; shift 2
	set +e
	"$MMB" rm "$@" </dev/null >"$TMP/rm.out" 2>"$TMP/rm.err"; rc=$?
	set -e
	[ $rc -eq "$want" ] || die "rm $*: exit $rc, want $want: $(cat "$TMP/rm.err")"
	grep -qF -- "$msg" "$TMP/rm.err" || die "rm $*: no '$msg' in: $(cat "$TMP/rm.err")"
}
expect 2 "not removing without --yes" 2
grep -q "run 2  run-b  rm-run-b  complete  3 samples" "$TMP/rm.err" || die "rm did not say what would go: $(cat "$TMP/rm.err")"
expect 2 "no run 99" --yes 2 99
expect 2 "unknown kernel label 'nope'" --yes --label nope
expect 2 "is not a run id" --yes two
expect 2 "nothing to remove" --yes
[ "$(all)" = "$before" ] || die "a refused rm removed something: $(all) vs $before"

# kill -9 inside the transaction: as before
MMBENCH_TEST_RM_SLEEP=60 "$MMB" rm --yes --label run-b 2>"$TMP/kill.err" &
pid=$!
for _ in $(seq 1 100); do grep -q "will remove" "$TMP/kill.err" && break; sleep 0.1; done
sleep 1
kill -9 $pid; wait $pid 2>/dev/null || true
[ "$(q 'PRAGMA integrity_check')" = ok ] || die "DB damaged by kill -9"
[ "$(all)" = "$before" ] || die "kill -9 inside rm left a half removal: $(all) vs $before"

# and through: run 2 and its label gone, the others whole
expect 0 "removed 1 run and 1 label" --yes 2
[ "$(of_run 2)" = 0 ] || die "rows of run 2 left behind"
[ "$(q 'SELECT group_concat(label) FROM (SELECT label FROM kernels ORDER BY label)')" = "imp,run-a" ] || die "labels left"
[ "$(q 'SELECT count(*) FROM runs')" = 2 ] || die "other runs touched"
"$MMB" compare --format csv run-a imp >/dev/null 2>&1 || true
expect 0 "removed 1 run and 1 label" --yes --label imp
# run-a's own blocks (its rows, packed when it ended) stay
[ "$(q "SELECT count(*) FROM sample_blocks WHERE run_id NOT IN (SELECT id FROM runs)")" = 0 ] ||
	die "import blocks left behind"
[ "$(q "SELECT count(*) FROM sample_blocks")" -gt 0 ] || die "run-a's blocks went too"
echo ok
