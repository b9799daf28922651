#!/bin/bash
# export writes what import reads: import(export(x)) gives byte-identical
# compare output in every format (imports of CSV and matrix.json, several
# runs per label; runner runs too, but for lkp's machine/governor header
# lines, which CSV does not carry); the samples view imports as it is.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
FIX=$(cd "$(dirname "$0")/../fixtures/compare" && pwd)
X=$TMP/x.db Y=$TMP/y.db
"$MMB" -q import --db "$X" --name base "$FIX/aim9-base.csv"
"$MMB" -q import --db "$X" --name base "$FIX/aim9-base.csv"
"$MMB" -q import --db "$X" --name new "$FIX/aim9-new.csv"
"$MMB" -q import --db "$X" --name mb "$FIX/aim9-base.matrix.json"
"$MMB" -q import --db "$X" --name mn "$FIX/aim9-new.matrix.json"
"$MMB" -q import --db "$X" --name "mm,\"q\"" "$FIX/multi-patched.csv"
"$MMB" -q import --db "$X" --name mmu "$FIX/multi-6.8.0-rc4-mm-unstable.csv"
mkdir -p "$TMP/st"
printf 'experiment: ex\niterations: 4\nwarmup: 0\nworkloads:\n  - name: faulty\n    params:\n      script: ok,ok,ok,ok\n      state_dir: %s\n' "$TMP/st" > "$TMP/f.yaml"
for l in ra rb; do MMBENCH_DB=$X run --name $l "$TMP/f.yaml"; [ $rc -eq 0 ] || die "run $l: $(cat "$TMP/err")"; done
# a failed run is not pooled by compare, so not exported
sqlite3 "$X" "INSERT INTO runs (kernel_id, status) SELECT id, 'failed' FROM kernels WHERE label = 'ra'"

"$MMB" export --db "$X" > "$TMP/x.csv" 2>"$TMP/e.err" || die "export: $(cat "$TMP/e.err")"
head -1 "$TMP/x.csv" | grep -qx "label,run,workload,variant,metric,unit,better,iteration,seq,value" || die "header: $(head -1 "$TMP/x.csv")"
"$MMB" -q import --db "$Y" "$TMP/x.csv" || die "import of the export failed"
[ "$(sqlite3 "$Y" 'SELECT count(*) FROM runs')" = 9 ] || die "runs kept apart: $(sqlite3 "$Y" 'SELECT count(*) FROM runs') (want 9)"
same() {	# labels...
	for f in text mmtests lkp markdown csv json; do
		[ "$f" = lkp ] && [ "$1" = ra ] && continue
		# export carries samples, not monitor rows (docs/monitors.md): KPIs alone
		"$MMB" compare --db "$X" --monitors none --format $f "$@" > "$TMP/a" 2>&1 || { cat "$TMP/a"; die "compare $f $*"; }
		"$MMB" compare --db "$Y" --monitors none --format $f "$@" > "$TMP/b" 2>&1
		cmp -s "$TMP/a" "$TMP/b" || { diff "$TMP/a" "$TMP/b" | head; die "compare --format $f $* differs after export/import"; }
	done
}
same base new
same mb mn
same mmu "mm,\"q\""
same ra rb
# the selection: --label, --run
"$MMB" -q export --db "$X" --label new > "$TMP/n.csv"
[ "$(tail -n +2 "$TMP/n.csv" | cut -d, -f1 | sort -u)" = new ] || die "--label new exported other labels"
"$MMB" -q export --db "$X" --run 1 --run 4 > "$TMP/r.csv"
[ "$(tail -n +2 "$TMP/r.csv" | cut -d, -f2 | sort -u | tr '\n' ' ')" = "1 4 " ] || die "--run 1 --run 4"
set +e
"$MMB" export --db "$X" --label nope > /dev/null 2>"$TMP/e.err"; rc=$?
set -e
[ $rc -eq 2 ] && grep -q "unknown kernel label 'nope'" "$TMP/e.err" || die "unknown label: exit $rc"
# --name puts an export's runs under one label
"$MMB" -q import --db "$Y" --name again "$TMP/n.csv"
[ "$(sqlite3 "$Y" "SELECT count(*) FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE k.label = 'again'")" = 1 ] || die "--name over a label column"

# what users try first: the samples view as sqlite3 writes it
sqlite3 -header -csv "$X" "SELECT * FROM samples WHERE run_id IN (1, 2)" > "$TMP/view.csv"
"$MMB" -q import --db "$Y" --name view "$TMP/view.csv" || die "the samples view does not import"
"$MMB" compare --db "$X" --format csv base new > "$TMP/a"
"$MMB" compare --db "$Y" --format csv view new | sed 's/^\([^,]*,[^,]*,[^,]*,[^,]*,[^,]*\),view,view,/\1,base,base,/; s/,new,view,/,new,base,/' > "$TMP/b"
sed -n 2p "$TMP/a" | cut -d, -f8- > "$TMP/a1"; sed -n 2p "$TMP/b" | cut -d, -f8- > "$TMP/b1"
cmp -s "$TMP/a1" "$TMP/b1" || die "the samples view imported other values"
echo ok
