#!/bin/bash
# merge: another DB's runs (runner rows, import blocks, iterations,
# monitors, environment, machine) land as they were; merging twice adds
# nothing; a label naming another kernel is refused unless --rename; typed
# variants come along; an SQLite file given to import points at merge.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
FIX=$(cd "$(dirname "$0")/../fixtures" && pwd)
A=$TMP/a.db B=$TMP/b.db C=$TMP/c.db

faulty_run() {	# db, label
	mkdir -p "$TMP/st-$2"
	cat > "$TMP/f.yaml" <<EOC
experiment: merge-$2
iterations: 4
warmup: 1
workloads:
  - name: faulty
    params:
      script: ok,ok,ok,ok,ok
      state_dir: $TMP/st-$2
EOC
	MMBENCH_DB=$1 run --name "$2" "$TMP/f.yaml"
	[ $rc -eq 0 ] || die "run $2 failed: $(cat "$TMP/err")"
}
sq() { sqlite3 -batch -noheader "$@"; }

"$MMB" -q import --db "$A" --name imp-a "$FIX/compare/aim9-base.csv"
faulty_run "$A" run-a
faulty_run "$B" run-b
"$MMB" -q import --db "$B" --name imp-b "$FIX/compare/aim9-new.csv"
sq "$B" "UPDATE iterations SET disturbed = 'foreign CPU 42%', interference = 0.42 WHERE iteration = 2"

# every run has a uuid, all different
[ "$(sq "$A" "SELECT count(DISTINCT uuid) FROM runs WHERE uuid LIKE '________-____-4___-____-____________'")" = 2 ] ||
	die "runs lack distinct v4 uuids: $(sq "$A" 'SELECT uuid FROM runs')"

counts() { sq "$1" "SELECT (SELECT count(*) FROM runs) || ' ' || (SELECT count(*) FROM iterations) || ' ' ||
	(SELECT count(*) FROM samples) || ' ' || (SELECT count(*) FROM monitors) || ' ' ||
	(SELECT count(*) FROM run_env) || ' ' || (SELECT count(*) FROM machines) || ' ' ||
	(SELECT count(*) FROM kernels)"; }
a0=$(counts "$A") b0=$(counts "$B")
"$MMB" merge --db "$A" "$B" 2>"$TMP/merr" || die "merge failed: $(cat "$TMP/merr")"
grep -q "2 runs merged" "$TMP/merr" || die "merge did not say what it did: $(cat "$TMP/merr")"
a1=$(counts "$A")
read -r ar ai as am ae _ ak <<<"$a0"; read -r br bi bs bm be _ bk <<<"$b0"
[ "$a1" = "$((ar + br)) $((ai + bi)) $((as + bs)) $((am + bm)) $((ae + be)) 1 $((ak + bk))" ] ||
	die "merged counts '$a1' from '$a0' + '$b0' (one machine: the same box)"

# the merged rows are the source's, value for value, in order
per_run() {	# db, label
	sq "$1" "SELECT s.workload, s.variant, s.metric, s.unit, s.better, s.iteration, s.seq, s.value,
		i.iteration, i.status, i.disturbed, i.interference
		FROM samples s JOIN runs r ON r.id = s.run_id JOIN kernels k ON k.id = r.kernel_id
		LEFT JOIN iterations i ON i.id = s.iteration_id WHERE k.label = '$2' ORDER BY s.id"
}
for l in run-b imp-b; do
	[ "$(per_run "$A" $l)" = "$(per_run "$B" $l)" ] || die "samples of $l differ after merge"
done
meta() { sq "$1" "SELECT r.uuid, r.experiment, r.config_text, r.status, r.release, r.accel, r.started,
	m.cpu_model, m.ncpus, (SELECT group_concat(key || '=' || value, ';') FROM run_env e WHERE e.run_id = r.id),
	(SELECT count(*) || '/' || sum(delta) FROM monitors o JOIN iterations i ON i.id = o.iteration_id WHERE i.run_id = r.id)
	FROM runs r LEFT JOIN machines m ON m.id = r.machine_id JOIN kernels k ON k.id = r.kernel_id
	WHERE k.label IN ('run-b', 'imp-b') ORDER BY r.uuid"; }
[ "$(meta "$A")" = "$(meta "$B")" ] || die "run metadata differs after merge"
"$MMB" compare --db "$A" --format csv run-a run-b > /dev/null || die "compare on the merged DB"

# twice: nothing new
"$MMB" merge --db "$A" "$B" 2>"$TMP/merr" || die "second merge failed"
grep -q "0 runs merged .* 2 already here" "$TMP/merr" || die "second merge: $(cat "$TMP/merr")"
[ "$(counts "$A")" = "$a1" ] || die "merging twice added rows: $(counts "$A") vs $a1"

# a label that is another kernel there: refused, nothing merged
faulty_run "$C" run-a
sq "$C" "UPDATE kernels SET release = '9.9.9-other', config_hash = 'abcdef0123456789'"
sq "$A" "UPDATE kernels SET config_hash = '0123456789abcdef' WHERE label = 'run-a'"
set +e
"$MMB" merge --db "$A" "$C" 2>"$TMP/merr"; rc=$?
set -e
[ $rc -eq 2 ] || die "conflicting label merged (exit $rc)"
grep -q "label 'run-a': release .*, config 0123456789ab here; release 9.9.9-other, config abcdef012345 in $C" "$TMP/merr" ||
	die "conflict message: $(cat "$TMP/merr")"
grep -q -- "--rename run-a=" "$TMP/merr" || die "no hint at --rename: $(cat "$TMP/merr")"
[ "$(counts "$A")" = "$a1" ] || die "a refused merge left rows"
"$MMB" -q merge --db "$A" --rename run-a=run-a-other "$C" || die "--rename merge failed"
[ "$(sq "$A" "SELECT k.release || ' ' || count(*) FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE k.label = 'run-a-other'")" = "9.9.9-other 1" ] ||
	die "renamed run not under run-a-other"
set +e
"$MMB" merge --db "$A" --rename run-a "$C" 2>"$TMP/merr"; rc=$?
set -e
[ $rc -eq 2 ] && grep -q "expected FROM=TO" "$TMP/merr" || die "bad --rename: exit $rc $(cat "$TMP/merr")"

# bad sources: exit 2, one message each
badmerge() {	# message, file
	set +e
	"$MMB" merge --db "$A" "$2" 2>"$TMP/merr"; rc=$?
	set -e
	[ $rc -eq 2 ] && grep -qF "$1" "$TMP/merr" || die "merge $2: exit $rc, $(cat "$TMP/merr")"
}
badmerge "into itself" "$A"
badmerge "No such file" "$TMP/nope.db"
echo "workload,metric" > "$TMP/x.csv"
badmerge "not an mmbench results database" "$TMP/x.csv"
[ "$(counts "$A")" = "$(counts "$A")" ]

# typed variants come along (series.params_json): a series only the source
# has keeps its types, one the target has untyped gets them
cat > "$TMP/spin.yaml" <<EOC
experiment: typed
iterations: 1
warmup: 0
workloads:
  - name: spin
    params: { threads: 1, ms: [5, 10] }
EOC
MMBENCH_DB=$TMP/typed.db run --name spin-a "$TMP/spin.yaml"
[ $rc -eq 0 ] || die "spin run failed: $(cat "$TMP/err")"
types() { sq "$1" "SELECT variant || ' ' || ifnull(params_json, 'untyped') FROM series
	WHERE workload = 'spin' ORDER BY variant, metric"; }
typed=$(types "$TMP/typed.db")
grep -qF 'ms=10 [{"name":"ms","type":"int","value":10,"text":"10"}]' <<<"$typed" ||
	die "the spin run's series are not typed: $typed"
"$MMB" -q merge --db "$A" "$TMP/typed.db" || die "merge of the typed run failed"
[ "$(types "$A")" = "$typed" ] || die "merge lost the typed variants: $(types "$A")"
sq "$A" "UPDATE series SET params_json = NULL WHERE workload = 'spin'"
"$MMB" -q merge --db "$A" "$TMP/typed.db" || die "second merge of the typed run failed"
[ "$(types "$A")" = "$typed" ] || die "merge did not type the untyped series: $(types "$A")"

# import of a results DB says to use merge
set +e
"$MMB" import --db "$A" --name x "$B" 2>"$TMP/ierr"; rc=$?
set -e
[ $rc -eq 2 ] && grep -q "is an SQLite database.*mmbench merge" "$TMP/ierr" || die "import of a DB: exit $rc $(cat "$TMP/ierr")"
echo ok
