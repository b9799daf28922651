#!/bin/bash
# export --format json is lossless: import(export(x)) gives byte-identical
# compare output in every format (lkp's machine and governor lines too),
# --by machine included, and keeps what CSV loses: disturbed marks,
# interference levels, environment, machines, monitors.  Importing it
# again adds nothing (runs keep their uuid); bad files are refused with
# FILE:LINE:COL.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
FIX=$(cd "$(dirname "$0")/../fixtures/compare" && pwd)
X=$TMP/x.db Y=$TMP/y.db O=$TMP/o.db
"$MMB" -q import --db "$X" --name base "$FIX/aim9-base.csv"
"$MMB" -q import --db "$X" --name base "$FIX/aim9-base.csv"
"$MMB" -q import --db "$X" --name new "$FIX/aim9-new.csv"
"$MMB" -q import --db "$X" --name mb "$FIX/aim9-base.matrix.json"
"$MMB" -q import --db "$X" --name mn "$FIX/aim9-new.matrix.json"
"$MMB" -q import --db "$X" --name "mm,\"q\"" "$FIX/multi-patched.csv"
"$MMB" -q import --db "$X" --name mmu "$FIX/multi-6.8.0-rc4-mm-unstable.csv"
mkdir -p "$TMP/st"
printf 'experiment: ex\niterations: 6\nwarmup: 0\nworkloads:\n  - name: faulty\n    params:\n      script: ok,ok,ok,ok,ok,ok\n      state_dir: %s\n' "$TMP/st" > "$TMP/f.yaml"
for l in ra rb; do MMBENCH_DB=$X run --name $l "$TMP/f.yaml"; [ $rc -eq 0 ] || die "run $l: $(cat "$TMP/err")"; done
# what CSV loses: two of rb's iterations disturbed, interference levels
sqlite3 "$X" "UPDATE iterations SET disturbed = 'foreign CPU 50% (test)' WHERE run_id = (SELECT max(id) FROM runs) AND iteration IN (2, 5)"
sqlite3 "$X" "UPDATE iterations SET interference = 0.01 * iteration"
[ "$(sqlite3 "$X" 'SELECT count(*) FROM monitors')" -gt 0 ] || die "the runs recorded no monitors"
# a run of another machine, for --by machine
MMBENCH_DB=$O run --name ra "$TMP/f.yaml"; [ $rc -eq 0 ] || die "run on o: $(cat "$TMP/err")"
MMBENCH_DB=$O run --name rb "$TMP/f.yaml"; [ $rc -eq 0 ] || die "run on o: $(cat "$TMP/err")"
sqlite3 "$O" "UPDATE machines SET hostname = 'other', cpu_model = 'Other CPU', ncpus = 2, mem_bytes = 1073741824; UPDATE iterations SET interference = NULL"
"$MMB" -q merge --db "$X" "$O"
# a failed run is not pooled by compare, so not exported
sqlite3 "$X" "INSERT INTO runs (kernel_id, status) SELECT id, 'failed' FROM kernels WHERE label = 'ra'"

"$MMB" export --db "$X" --format json > "$TMP/x.json" 2>"$TMP/e.err" || die "export: $(cat "$TMP/e.err")"
grep -q "exported 11 runs" "$TMP/e.err" || die "export said: $(cat "$TMP/e.err")"
head -c 40 "$TMP/x.json" | grep -q '^{"mmbench_export":1,"schema":' || die "head: $(head -c 80 "$TMP/x.json")"
"$MMB" import --db "$Y" "$TMP/x.json" 2>"$TMP/i.err" || die "import of the export: $(cat "$TMP/i.err")"
grep -q "imported 11 runs" "$TMP/i.err" || die "import said: $(cat "$TMP/i.err")"
for t in machines run_env iterations monitors sample_values sample_blocks; do
	a=$(sqlite3 "$X" "SELECT count(*) FROM $t") b=$(sqlite3 "$Y" "SELECT count(*) FROM $t")
	[ "$a" = "$b" ] || die "$t: $b rows after the round trip, $a before"
done
[ "$(sqlite3 "$Y" "SELECT count(*) FROM iterations WHERE disturbed IS NOT NULL")" = 2 ] || die "disturbed marks lost"
[ "$(sqlite3 "$X" "SELECT group_concat(uuid) FROM (SELECT uuid FROM runs WHERE status <> 'failed' ORDER BY uuid)")" = \
  "$(sqlite3 "$Y" "SELECT group_concat(uuid) FROM (SELECT uuid FROM runs ORDER BY uuid)")" ] || die "uuids differ"
same() {	# compare options and labels...
	for f in text mmtests lkp markdown csv json; do
		"$MMB" compare --db "$X" --format $f "$@" > "$TMP/a" 2>&1 || { cat "$TMP/a"; die "compare $f $*"; }
		"$MMB" compare --db "$Y" --format $f "$@" > "$TMP/b" 2>&1
		cmp -s "$TMP/a" "$TMP/b" || { diff "$TMP/a" "$TMP/b" | head; die "compare --format $f $* differs after export/import"; }
	done
}
same base new
same mb mn
same mmu "mm,\"q\""
same --by machine ra rb
same --by machine --keep-disturbed ra rb
# the disturbed marks matter: without them rb's n would be 6 on this machine
"$MMB" compare --db "$Y" --by machine ra rb | grep -q "4 (2 disturbed)" || die "disturbed counts lost: $("$MMB" compare --db "$Y" --by machine ra rb)"

# again: nothing new (uuids)
"$MMB" import --db "$Y" "$TMP/x.json" 2>"$TMP/i.err" || die "second import: $(cat "$TMP/i.err")"
grep -q "imported 0 runs .* 11 already here" "$TMP/i.err" || die "second import: $(cat "$TMP/i.err")"
# selection, --name, and a label that is another kernel here
"$MMB" -q export --db "$X" --format json --label new --run 1 > "$TMP/n.json"
"$MMB" -q import --db "$TMP/z.db" --name again "$TMP/n.json"
[ "$(sqlite3 "$TMP/z.db" "SELECT group_concat(label) FROM kernels")" = again ] || die "--name: $(sqlite3 "$TMP/z.db" 'SELECT label FROM kernels')"
[ "$(sqlite3 "$TMP/z.db" "SELECT count(*) FROM runs")" = 2 ] || die "--label new --run 1: $(sqlite3 "$TMP/z.db" 'SELECT count(*) FROM runs') runs"
sqlite3 "$TMP/z.db" "UPDATE kernels SET release = '9.9.9'"
"$MMB" -q export --db "$TMP/z.db" --format json > "$TMP/z.json"
"$MMB" -q import --db "$TMP/w.db" --name again "$FIX/aim9-base.csv"
sqlite3 "$TMP/w.db" "UPDATE kernels SET release = '1.0.0'"
set +e
"$MMB" import --db "$TMP/w.db" "$TMP/z.json" 2>"$TMP/e.err"; rc=$?
set -e
[ $rc -eq 2 ] && grep -q "$TMP/z.json: 1 label names a different kernel" "$TMP/e.err" || die "label conflict: exit $rc: $(cat "$TMP/e.err")"
# bad files: one FILE:LINE:COL error, exit 2, nothing imported
bad() {	# sed-expression want
	sed "$1" "$TMP/n.json" > "$TMP/bad.json"
	set +e
	"$MMB" import --db "$TMP/b.db" "$TMP/bad.json" 2>"$TMP/e.err"; rc=$?
	set -e
	[ $rc -eq 2 ] && grep -q "$2" "$TMP/e.err" || die "bad file ($1): exit $rc: $(cat "$TMP/e.err")"
	[ "$(sqlite3 "$TMP/b.db" "SELECT count(*) FROM runs" 2>/dev/null || echo 0)" = 0 ] || die "bad file ($1) imported runs"
}
bad 's/"machines":/"mashines":/' "bad.json:[0-9]*:[0-9]*: no table 'mashines'"
bad 's/"hostname"/"hostnam"/' "bad.json:[0-9]*:[0-9]*: table 'machines' has no column 'hostnam'"
bad 's/"schema":[0-9]*/"schema":99/' "written by a newer mmbench"
bad '3s/^\[\([0-9]*\),/[\1,[],/' "expected an array of\|a value is a number"
bad 's/^\(\[[0-9]*\),[0-9]*,/\1,999,/' "FOREIGN KEY\|constraint"
echo ok
