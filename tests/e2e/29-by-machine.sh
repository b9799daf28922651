#!/bin/bash
# Results of two machines: merged into one DB, `compare a b` refuses to
# pool them (exit 2, naming both machines), `compare --by machine a b`
# prints one table per machine and the change per machine (golden file).
# The faulty plugin reports the iteration counter, so the values are
# fixed; the machine rows are rewritten with sqlite3 and the interference
# records (this box's load) cleared, so the output is the same anywhere.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
GOLD=$(cd "$(dirname "$0")/../fixtures/golden" && pwd)
ONE=$TMP/one.db TWO=$TMP/two.db
mkdir -p "$TMP/st"
printf 'experiment: ex\niterations: 4\nwarmup: 0\nworkloads:\n  - name: faulty\n    params:\n      script: ok,ok,ok,ok\n      state_dir: %s\n' "$TMP/st" > "$TMP/f.yaml"
tiny() {	# DB LABEL COUNTER: values COUNTER+1 .. COUNTER+4
	echo "$3" > "$TMP/st/faulty.counter"
	MMBENCH_DB=$1 run --name "$2" "$TMP/f.yaml"
	[ $rc -eq 0 ] || die "run $2 into $1: $(cat "$TMP/err")"
}
tiny "$ONE" a 100; tiny "$ONE" b 104	# one: b is 4 better
tiny "$TWO" a 200; tiny "$TWO" b 200	# two: no change
# the runs' monitor rows (rusage, vmstat, counters) are this box's own: out of the golden
for db in "$ONE" "$TWO"; do sqlite3 "$db" "UPDATE iterations SET interference = NULL, disturbed = NULL; DELETE FROM monitors WHERE source <> 'interference'"; done
sqlite3 "$ONE" "UPDATE machines SET hostname = 'box-one', cpu_model = 'Intel(R) Xeon(R) Gold 6346 CPU @ 3.10GHz', ncpus = 64, mem_bytes = 270582939648"
sqlite3 "$TWO" "UPDATE machines SET hostname = 'box-two', cpu_model = 'AMD EPYC 7763 64-Core Processor', ncpus = 128, mem_bytes = 549755813888"
# the running kernel's compiler (/proc/version) is this machine's: pin it
for d in "$ONE" "$TWO"; do sqlite3 "$d" "UPDATE kernels SET compiler = NULL"; done
"$MMB" -q merge --db "$ONE" "$TWO" || die "merge"
[ "$(sqlite3 "$ONE" 'SELECT count(*) FROM machines')" = 2 ] || die "merge kept $(sqlite3 "$ONE" 'SELECT count(*) FROM machines') machines (want 2)"

# pooling two machines is refused, naming both
set +e
"$MMB" compare --db "$ONE" a b > "$TMP/out" 2> "$TMP/err"; rc=$?
set -e
[ $rc -eq 2 ] || die "compare a b over two machines: exit $rc (want 2): $(cat "$TMP/err")"
[ ! -s "$TMP/out" ] || die "compare a b printed a table: $(cat "$TMP/out")"
grep -q "machine 1: box-one, Intel(R) Xeon(R) Gold 6346 CPU @ 3.10GHz, runs of a, b" "$TMP/err" &&
grep -q "machine 2: box-two, AMD EPYC 7763 64-Core Processor, runs of a, b" "$TMP/err" &&
grep -q -- "--by machine a b" "$TMP/err" || die "refusal does not name both machines: $(cat "$TMP/err")"
# one label alone on two machines is refused too (a vs a)
set +e
"$MMB" compare --db "$ONE" --format csv a a > /dev/null 2> "$TMP/err"; rc=$?
set -e
[ $rc -eq 2 ] && grep -q "2 machines" "$TMP/err" || die "a vs a over two machines: exit $rc"

# --by machine: golden
"$MMB" compare --db "$ONE" --by machine a b > "$TMP/by.txt" 2> "$TMP/err" || die "--by machine: $(cat "$TMP/err")"
[ -z "${MMB_REGEN_GOLDEN:-}" ] || cp "$TMP/by.txt" "$GOLD/compare-by-machine.txt"
diff -u "$GOLD/compare-by-machine.txt" "$TMP/by.txt" || die "--by machine differs from tests/fixtures/golden/compare-by-machine.txt"
# every format works; csv has the machine in front, json parses
for f in mmtests lkp markdown csv json; do
	"$MMB" compare --db "$ONE" --by machine --format $f a b > "$TMP/by.$f" 2> "$TMP/err" || die "--by machine --format $f: $(cat "$TMP/err")"
done
grep -q "^for machine 2 (box-two): 128 CPUs, AMD EPYC 7763 64-Core Processor, 512G memory" "$TMP/by.lkp" || die "lkp: no machine heading"
# each machine's block names its own host (tbox_group); machine 2's row did
# not change, so its table lists none, as 0-day's does (issue 45 item 4)
sed -n '/^for machine 1/,/^for machine 2/p' "$TMP/by.lkp" | grep -qx "  box-one/faulty" ||
	die "lkp: machine 1's header: $(cat "$TMP/by.lkp")"
sed -n '/^for machine 2/,$p' "$TMP/by.lkp" | grep -q "^no stat changed under the test" ||
	die "lkp: machine 2's table: $(cat "$TMP/by.lkp")"
grep -q "^| metric " "$TMP/by.markdown" || die "markdown: no change table"
head -1 "$TMP/by.csv" | grep -q "^machine,hostname,cpu_model,ncpus,mem_bytes,workload," || die "csv header: $(head -1 "$TMP/by.csv")"
[ "$(grep -c '^2,box-two,' "$TMP/by.csv")" = 2 ] && [ "$(grep -c '^1,box-one,' "$TMP/by.csv")" = 2 ] || die "csv rows: $(cat "$TMP/by.csv")"
if command -v python3 >/dev/null; then
	python3 - "$TMP/by.json" <<'PY' || die "json: $(head -c 400 "$TMP/by.json")"
import json, sys
j = json.load(open(sys.argv[1]))
assert [m["hostname"] for m in j["machines"]] == ["box-one", "box-two"]
v = [m["comparison"]["rows"][0]["kernels"][1]["verdict"] for m in j["machines"]]
assert v == ["improvement", "no significant change"], v
PY
fi
set +e
"$MMB" compare --db "$ONE" --by host a b > /dev/null 2> "$TMP/err"; rc=$?
set -e
[ $rc -eq 2 ] && grep -q "only grouping is --by machine" "$TMP/err" || die "--by host: exit $rc"

# a run without a machine (an import) pools with either machine
printf 'workload,metric,variant,unit,better,iteration,value\nfaulty,value,,units,higher,1,106\nfaulty,value,,units,higher,2,107\n' > "$TMP/i.csv"
"$MMB" -q import --db "$ONE" --name b "$TMP/i.csv"
"$MMB" compare --db "$ONE" --by machine --format csv a b > "$TMP/imp.csv"
[ "$(awk -F, '$11 == "b" { print $1 ":" $13 }' "$TMP/imp.csv" | tr '\n' ' ')" = "1:6 2:6 " ] ||
	die "the import is not pooled with each machine: $(cat "$TMP/imp.csv")"
# and a DB of one machine plus imports compares as before
"$MMB" -q merge --db "$TMP/three.db" "$TWO"
"$MMB" -q import --db "$TMP/three.db" --name b "$TMP/i.csv"
"$MMB" compare --db "$TMP/three.db" a b > "$TMP/out" 2> "$TMP/err" || die "one machine + an import refused: $(cat "$TMP/err")"
echo ok
