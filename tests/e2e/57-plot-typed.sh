#!/bin/bash
# Variants are typed end to end: a run stores its variant's params with the
# plugin's types (series.params_json), and plot takes the scaling axis from
# them, so a parameter no list of names knew (the spin plugin's ms) gets a
# scaling plot; a case first (test=...) still gets box plots, and an
# import's "4K" (text, no type) is no number.
. "$(dirname "$0")/../e2e-lib.sh"
command -v gnuplot >/dev/null || skip "gnuplot is not installed (apt-get install gnuplot-nox)"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins

spin_ms_runs a b
json=$(q "SELECT params_json FROM series WHERE variant = 'ms=10' LIMIT 1")
[ "$json" = '[{"name":"ms","type":"int","value":10,"text":"10"}]' ] ||
	die "series.params_json of ms=10: '$json'"
"$MMB" plot --out "$TMP/p" a b > "$TMP/list" 2> "$TMP/perr" || die "plot failed: $(cat "$TMP/perr")"
[ -s "$TMP/p/spin-passes-scaling.png" ] || die "no scaling plot over ms: $(ls "$TMP/p"); plot said: $(cat "$TMP/perr")"
grep -q 'spin passes vs ms' "$TMP/p/spin-passes-scaling.gp" || die "scaling title should name ms"
[ ! -e "$TMP/p/spin-passes-box.png" ] || die "spin ms drawn as boxes"
# x is the typed value: 5, 10, 20 in the data's first block
xs=$(awk '/^# block 0:/ { b = 1; next } /^# block 1:/ { b = 0 } b && /^[0-9]/ { printf "%s ", $1 }' \
	"$TMP/p/spin-passes-scaling.dat")
[ "$xs" = "5 10 20 " ] || die "scaling x values '$xs', expected 5 10 20"

# imports: typed from the text; a case first, or a size written "4K", stays boxes
export MMBENCH_DB=$TMP/imp.db
for l in c d; do
	{
		echo "workload,metric,variant,iteration,value,unit,better"
		for v in "test=fork,folio_kb=4" "test=fork,folio_kb=64"; do
			for i in 1 2 3; do echo "pmf,seconds,\"$v\",$i,0.0$i$((RANDOM % 9)),s,lower"; done
		done
		for v in size=4K size=1M; do
			for i in 1 2 3; do echo "sz,seconds,$v,$i,0.0$i$((RANDOM % 9)),s,lower"; done
		done
	} > "$TMP/$l.csv"
	"$MMB" -q import --name $l "$TMP/$l.csv"
done
"$MMB" plot --out "$TMP/i" c d > /dev/null 2> "$TMP/perr" || die "plot of imports failed: $(cat "$TMP/perr")"
for w in pmf sz; do
	[ -s "$TMP/i/$w-seconds-box.png" ] || die "$w: expected box plots, got: $(ls "$TMP/i")"
	[ ! -e "$TMP/i/$w-seconds-scaling.png" ] || die "$w: not a scaling workload"
done
echo ok
