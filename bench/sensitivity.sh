#!/bin/bash
# make bench material (never make check): how sensitive is mmbench on THIS
# machine, and does an A/A comparison of one kernel come out clean?
#
# 1. Collect real samples on the running kernel: SENS_ROUNDS rounds of
#    interleaved `mmbench run --name A` / `--name B` invocations (same kernel,
#    A B A B ...), each with a few iterations of aim9 brk_test (short
#    testtime) and a small pft.  Optionally (SENS_RECIPE=1, the default) one
#    run of the mmtests aim9 recipe's brk_test: 12 x 15 s.
# 2. The real A/A: `mmbench compare A B`, and one `mmbench compare` per round
#    (A's k-th run vs B's k-th run, re-imported under their own labels) ->
#    fraction "no significant change".
# 3. bench/power.c on the pooled samples: bootstrap A/A false-positive rate
#    and 2%-regression power per test for n = 3..30, and the machine time
#    Welch needs for 80% power vs the mmtests aim9 recipe (12 x 15 s).
#
# Env: MMBENCH_BUILD (build dir, default build), SENS_ROUNDS (10),
#   SENS_AIM9_ITER (3 per run), SENS_TESTTIME (5 = seconds per aim9 sample),
#   SENS_PFT_ITER (5 per run), SENS_PFT_SIZE (128M), SENS_RECIPE (1),
#   SENS_TRIALS (2000 bootstrap pairs per n), SENS_SEED (1),
#   SENS_DB (keep/reuse the collected DB: collection is skipped when the file
#   exists), SENS_COLLECT_ONLY (1: stop after collecting).
# Bootstrapping assumes i.i.d. samples; slow drift is what interleaving
# handles, and the per-round A/A comparisons below include it.
set -u
cd "$(dirname "$0")/.."
BUILD=${MMBENCH_BUILD:-build}
MMB=$BUILD/mmbench
ROUNDS=${SENS_ROUNDS:-10}
AIM9_ITER=${SENS_AIM9_ITER:-3}
TESTTIME=${SENS_TESTTIME:-5}
PFT_ITER=${SENS_PFT_ITER:-5}
PFT_SIZE=${SENS_PFT_SIZE:-128M}
RECIPE=${SENS_RECIPE:-1}
TRIALS=${SENS_TRIALS:-2000}
SEED=${SENS_SEED:-1}

for v in ROUNDS AIM9_ITER TESTTIME PFT_ITER TRIALS SEED; do
	[[ ${!v} =~ ^[0-9]+$ ]] && [ "${!v}" -ge 1 ] ||
		{ echo "error: SENS_$v must be a whole number >= 1, got '${!v}'" >&2; exit 2; }
done
[[ $PFT_SIZE =~ ^[0-9]+[KMG]?$ ]] ||
	{ echo "error: SENS_PFT_SIZE must look like 128M, got '$PFT_SIZE'" >&2; exit 2; }
[ -x "$MMB" ] || { echo "error: $MMB not built (make BUILD=$BUILD)" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "error: sqlite3 CLI needed (apt-get install sqlite3)" >&2; exit 1; }

W=$(mktemp -d)
export MMBENCH_STATE=$W/state
mkdir -p "$MMBENCH_STATE"
trap 'rm -rf "$W"' EXIT
DB=${SENS_DB:-$W/sens.db}

say() { printf '%s\n' "$*"; }
now() { date +%s; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

# ---- 1. collect ----------------------------------------------------------
if [ -e "$DB" ]; then
	say "== reusing $DB (SENS_DB exists: no new runs)"
else
	cat > "$W/sens.yaml" <<EOF
experiment: sensitivity
description: aim9 brk_test ${TESTTIME}s and pft ${PFT_SIZE} for bench/sensitivity.sh
warmup: 0
timeout: 120s
workloads:
  - name: aim9
    iterations: $AIM9_ITER
    params:
      test: brk_test
      testtime: ${TESTTIME}s
  - name: pft
    iterations: $PFT_ITER
    warmup: 1
    params:
      size: $PFT_SIZE
      clients: 1
      mode: threads
EOF
	cat > "$W/recipe.yaml" <<EOF
experiment: aim9-recipe-brk
description: the mmtests aim9 recipe's brk_test (15 s, 12 iterations)
iterations: 12
warmup: 0
timeout: 60s
workloads:
  - name: aim9
    params:
      test: brk_test
      testtime: 15s
EOF
	est=$(( ROUNDS * 2 * (AIM9_ITER * TESTTIME + PFT_ITER + 2) + RECIPE * 180 ))
	say "== collecting: $ROUNDS rounds of A,B (same kernel $(uname -r)), about ${est} s"
	say "   load before: $(load)  (2-core shared VM; other jobs are running)"
	t0=$(now)
	for ((k = 1; k <= ROUNDS; k++)); do
		for L in A B; do
			"$MMB" run "$W/sens.yaml" --db "$DB" --name "$L" -q >> "$W/runs.log" ||
				say "   round $k $L: mmbench run exited $? (failed iterations are kept out of compare)"
		done
		[ -t 2 ] && printf '\r   round %d/%d, %ds' "$k" "$ROUNDS" $(( $(now) - t0 )) >&2
	done
	[ -t 2 ] && printf '\n' >&2
	if [ "$RECIPE" = 1 ]; then
		"$MMB" run "$W/recipe.yaml" --db "$DB" --name R15 -q >> "$W/runs.log" ||
			say "   recipe run exited $?"
	fi
	say "   collected in $(( $(now) - t0 )) s; load after: $(load)"
fi
[ "${SENS_COLLECT_ONLY:-0}" = 1 ] && { say "collect only: $DB"; trap - EXIT; exit 0; }

# ---- 2. real A/A through mmbench compare ----------------------------------
say ""
say "== real A/A: mmbench compare A B (all rounds pooled, default test welch + BH)"
"$MMB" compare --db "$DB" A B
for t in mmtests lkp; do
	say "-- same data, --test $t: $("$MMB" compare --db "$DB" --test "$t" --format csv A B |
		awk -F, 'NR > 1 && $6 == "B" { print $3 ": " $NF }' | paste -sd';' | sed 's/;/; /g')"
done

# Per round: A's k-th run vs B's k-th run, disjoint, adjacent in time (so
# drift between rounds does not enter, drift inside a round does).
say ""
say "== real A/A per round: A's k-th run vs B's k-th run, via mmbench import + compare"
DB2=$W/rounds.db
runs() {	# label -> complete/interrupted run ids in time order
	sqlite3 "$DB" ".parameter set @l '$1'" \
		"SELECT r.id FROM runs r JOIN kernels k ON k.id = r.kernel_id
		 WHERE k.label = @l AND r.status IN ('complete','interrupted')
		   AND r.experiment = 'sensitivity' ORDER BY r.id;"
}
export_run() {	# run id -> CSV for mmbench import
	echo "workload,metric,variant,iteration,value,unit,better"
	sqlite3 -csv "$DB" ".parameter set @r $1" \
		"SELECT workload, metric, variant, iteration, printf('%.17g', value), unit,
		        CASE WHEN better > 0 THEN 'higher' ELSE 'lower' END
		 FROM samples WHERE run_id = @r ORDER BY iteration, seq;"
}
mapfile -t RA < <(runs A)
mapfile -t RB < <(runs B)
nr=${#RA[@]}
[ "${#RB[@]}" -lt "$nr" ] && nr=${#RB[@]}
aa_total=0 aa_clean=0
for ((k = 0; k < nr; k++)); do
	[[ ${RA[k]} =~ ^[0-9]+$ && ${RB[k]} =~ ^[0-9]+$ ]] || continue
	export_run "${RA[k]}" > "$W/a.csv"
	export_run "${RB[k]}" > "$W/b.csv"
	"$MMB" -q import --db "$DB2" --name "A$k" "$W/a.csv" >/dev/null &&
		"$MMB" -q import --db "$DB2" --name "B$k" "$W/b.csv" >/dev/null ||
		{ say "   round $((k + 1)): import failed"; continue; }
	for wl in aim9 pft; do
		v=$("$MMB" compare --db "$DB2" --format csv --workload "$wl" "A$k" "B$k" |
			awk -F, -v L="B$k" 'NR > 1 && $6 == L {
				n++; if ($NF != "no significant change") { bad++; what = what " " $3 "=" $NF }
				if ($26 != "" && (min == "" || $26 + 0 < min)) min = $26 + 0 }
			END { if (!n) print "none"; else if (bad) printf "CHANGE%s (min p %.3g)\n", what, min;
			      else printf "no significant change (%d rows, min p %.3g)\n", n, min }')
		[ "$v" = none ] && continue
		aa_total=$((aa_total + 1))
		case $v in no\ significant*) aa_clean=$((aa_clean + 1)) ;; esac
		printf '   round %2d %-5s %s\n' $((k + 1)) "$wl" "$v"
	done
done
if [ "$aa_total" -gt 0 ]; then
	say "   A/A per round: $aa_clean of $aa_total comparisons \"no significant change\"" \
		"($(awk -v a="$aa_clean" -v t="$aa_total" 'BEGIN { printf "%.0f", 100 * a / t }')%;" \
		"target >= 95%; a pft comparison has 5 metric rows, BH-adjusted together)"
fi

# ---- 3. power on the pooled samples ---------------------------------------
# power.c is bench material, built here (not by the Makefile)
POWER=$W/power
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -Iinclude -Iharness/lib -Idb \
	-o "$POWER" bench/power.c "$BUILD/libmmbench.a" -lyaml -lsqlite3 -ldl -lpthread -lm ||
	{ echo "error: building bench/power.c failed" >&2; exit 1; }
pool_power() {	# title, then power.c args
	say ""
	say "== $1"
	shift
	"$POWER" --db "$DB" --trials "$TRIALS" --seed "$SEED" "$@"
}
pool_power "aim9 brk_test ${TESTTIME}s: A and B pooled (one kernel)" \
	--label A --label B --workload aim9 --metric brk_test.ops_per_sec --disjoint 3 \
	> "$W/aim9.out"
cat "$W/aim9.out"
pool_power "pft ${PFT_SIZE} 1 thread faults/sec: A and B pooled" \
	--label A --label B --workload pft --metric faults/sec --disjoint 5 > "$W/pft.out"
cat "$W/pft.out"
if [ "$RECIPE" = 1 ] && [ "$(runs_r15=$(sqlite3 "$DB" "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.experiment = 'aim9-recipe-brk' AND r.status IN ('complete','interrupted');"); echo "$runs_r15")" -ge 6 ]; then
	pool_power "aim9 brk_test 15 s (the mmtests recipe's own samples, small pool)" \
		--label R15 --workload aim9 --metric brk_test.ops_per_sec > "$W/r15.out"
	cat "$W/r15.out"
fi

# ---- 4. the machine-time claim ---------------------------------------------
say ""
say "== machine time for a 2% aim9 brk_test regression (per kernel; an A/B costs twice)"
row() { awk -v n="$2" -F'|' '$1 + 0 == n && $1 ~ /^ *[0-9]+ *$/ { print; exit }' "$1"; }
n80=$(sed -n 's/^result: n80.welch=\([0-9]*\).*/\1/p' "$W/aim9.out")
if [ -n "$n80" ]; then
	say "   mmbench (welch, p < 0.05): >= 80% power at n=$n80 x ${TESTTIME} s = $((n80 * TESTTIME)) s"
else
	say "   mmbench (welch): 80% power not reached by n=30 at ${TESTTIME} s per sample"
fi
say "   mmtests recipe: 12 x 15 s = 180 s, starred by the +-1.96 sigma band rule"
r12=$(row "$W/aim9.out" 12)
[ -n "$r12" ] && say "   at n=12 on the ${TESTTIME} s pool, detection %: $(awk -F'|' '{ print $3 }' <<<"$r12" |
	awk '{ printf "welch %s, mwu %s, mmtests %s, lkp %s", $1, $2, $3, $4 }')"
if [ -f "$W/r15.out" ]; then
	r12=$(row "$W/r15.out" 12)
	[ -n "$r12" ] && say "   at n=12 on the recipe's own 15 s samples: $(awk -F'|' '{ print $3 }' <<<"$r12" |
		awk '{ printf "welch %s, mwu %s, mmtests %s, lkp %s", $1, $2, $3, $4 }')" \
		"(bootstrap from only $(sed -n 's/^pool: \([0-9]*\) samples.*/\1/p' "$W/r15.out") samples)"
fi
say "   load now: $(load)"
exit 0
