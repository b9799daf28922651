#!/bin/bash
# make bench material (never make check): how sensitive is mmbench on THIS
# machine, and does an A/A comparison of one kernel come out clean?
#
# 1. Collect real samples on the running kernel: SENS_ROUNDS rounds of
#    interleaved `mmbench run --name A` / `--name B` invocations (same kernel,
#    A B A B ...), each with few iterations of aim9 brk_test (short testtime)
#    and a small pft.  Optionally (SENS_RECIPE=1, the default) one run of the
#    mmtests aim9 recipe's brk_test: 12 x 15 s.
# 2. The real A/A: `mmbench compare A B` over everything, and one
#    `mmbench compare` per disjoint block of SENS_BLOCK rounds (A's runs of
#    the block vs B's, re-imported under their own labels) -> fraction
#    "no significant change".
# 3. bench/power.c on the pooled samples: bootstrap A/A false-positive rate
#    and 2%-regression power per test for n = 3..30 (and on to SENS_FIND80
#    for welch), and the machine time Welch needs for 80% power vs the
#    mmtests aim9 recipe (12 x 15 s).
#
# Env: MMBENCH_BUILD (build dir, default build), SENS_ROUNDS (30),
#   SENS_AIM9_ITER (1 per run), SENS_TESTTIME (5 = seconds per aim9 sample),
#   SENS_PFT_ITER (2 per run), SENS_PFT_SIZE (128M), SENS_BLOCK (3 rounds per
#   A/A comparison), SENS_RECIPE (1), SENS_TRIALS (2000 bootstrap pairs per
#   n), SENS_FIND80 (2000), SENS_SEED (1), SENS_DB (keep/reuse the collected
#   DB: collection is skipped when the file exists), SENS_COLLECT_ONLY (1:
#   stop after collecting).  Defaults take about 13 minutes of machine time.
# Few iterations per invocation, many invocations: on a loaded machine the
# samples of one run share its load and are not independent (see
# docs/methodology.md).  Bootstrapping assumes i.i.d. samples; slow drift is
# what interleaving handles, and the block A/A comparisons include it.
set -u
cd "$(dirname "$0")/.." || exit 1
BUILD=${MMBENCH_BUILD:-build}
# the samples view reads blocks through mmb_samples() (docs/store.md)
MMB_SQLEXT=$(cd "$BUILD" && pwd)/sqlite/mmbsamples
sqlite3() { command sqlite3 -cmd ".load $MMB_SQLEXT" "$@"; }
MMB=$BUILD/mmbench
ROUNDS=${SENS_ROUNDS:-30}
AIM9_ITER=${SENS_AIM9_ITER:-1}
TESTTIME=${SENS_TESTTIME:-5}
PFT_ITER=${SENS_PFT_ITER:-2}
BLOCK=${SENS_BLOCK:-3}
PFT_SIZE=${SENS_PFT_SIZE:-128M}
RECIPE=${SENS_RECIPE:-1}
TRIALS=${SENS_TRIALS:-2000}
SEED=${SENS_SEED:-1}
FIND80=${SENS_FIND80:-2000}

for v in ROUNDS AIM9_ITER TESTTIME PFT_ITER BLOCK TRIALS FIND80 SEED; do
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
	# THP off for the benchmark processes only (prctl PR_SET_THP_DISABLE is
	# inherited over fork and exec): other tenants flip the global knob, and
	# pft would then measure 2 MiB faults in some runs.  The knob itself is
	# not touched, so nothing needs restoring.
	cat > "$W/nothp.c" <<'CEOF'
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	if (argc < 2 || prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0)) {
		perror("nothp: prctl(PR_SET_THP_DISABLE)");
		return 1;
	}
	execv(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
CEOF
	gcc -O2 -Wall -Wextra -Werror -o "$W/nothp" "$W/nothp.c" ||
		{ echo "error: building the THP-off wrapper failed" >&2; exit 1; }
	est=$(( ROUNDS * 2 * (AIM9_ITER * TESTTIME + PFT_ITER * 2 + 1) + RECIPE * 180 ))
	say "== collecting: $ROUNDS rounds of A,B (same kernel $(uname -r)), about ${est} s"
	say "   load before: $(load)  (2-core shared VM; other jobs are running)"
	say "   THP disabled for the benchmark processes only (global knob: $(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null))"
	t0=$(now)
	for ((k = 1; k <= ROUNDS; k++)); do
		for L in A B; do
			"$W/nothp" "$MMB" run "$W/sens.yaml" --db "$DB" --name "$L" -q >> "$W/runs.log" ||
				say "   round $k $L: mmbench run exited $? (failed iterations are kept out of compare)"
		done
		[ -t 2 ] && printf '\r   round %d/%d, %ds' "$k" "$ROUNDS" $(( $(now) - t0 )) >&2
	done
	[ -t 2 ] && printf '\n' >&2
	if [ "$RECIPE" = 1 ]; then
		"$W/nothp" "$MMB" run "$W/recipe.yaml" --db "$DB" --name R15 -q >> "$W/runs.log" ||
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

# Disjoint A/A: block k = rounds k*BLOCK+1 .. (k+1)*BLOCK, A's runs of the
# block vs B's runs of the same block (interleaved, adjacent in time),
# re-imported under their own labels and compared with the real command.
say ""
say "== real A/A on disjoint blocks of $BLOCK interleaved round(s): A's runs vs B's runs of the block"
DB2=$W/blocks.db
runs() {	# label -> complete/interrupted run ids in time order
	sqlite3 "$DB" ".parameter set @l '$1'" \
		"SELECT r.id FROM runs r JOIN kernels k ON k.id = r.kernel_id
		 WHERE k.label = @l AND r.status IN ('complete','interrupted')
		   AND r.experiment = 'sensitivity' ORDER BY r.id;"
}
export_runs() {	# run ids -> CSV for mmbench import (iterations renumbered)
	echo "workload,metric,variant,iteration,value,unit,better"
	local j=0 rid
	for rid in "$@"; do
		j=$((j + 1))
		sqlite3 -csv "$DB" ".parameter set @r $rid" \
			"SELECT workload, metric, variant, iteration, printf('%.17g', value), unit,
			        CASE WHEN better > 0 THEN 'higher' ELSE 'lower' END
			 FROM samples WHERE run_id = @r ORDER BY iteration, seq;" |
			awk -F, -v OFS=, -v j="$j" '{ $4 = j * 1000 + $4; print }'
	done
}
mapfile -t RA < <(runs A)
mapfile -t RB < <(runs B)
nr=${#RA[@]}
[ "${#RB[@]}" -lt "$nr" ] && nr=${#RB[@]}
aa_total=0 aa_clean=0
for ((k = 0; (k + 1) * BLOCK <= nr; k++)); do
	ida=("${RA[@]:k * BLOCK:BLOCK}")
	idb=("${RB[@]:k * BLOCK:BLOCK}")
	[[ "${ida[*]} ${idb[*]}" =~ ^[0-9\ ]+$ ]] || continue
	export_runs "${ida[@]}" > "$W/a.csv"
	export_runs "${idb[@]}" > "$W/b.csv"
	"$MMB" -q import --db "$DB2" --name "A$k" "$W/a.csv" >/dev/null &&
		"$MMB" -q import --db "$DB2" --name "B$k" "$W/b.csv" >/dev/null ||
		{ say "   block $((k + 1)): import failed"; continue; }
	for wl in aim9 pft; do
		v=$("$MMB" compare --db "$DB2" --format csv --workload "$wl" "A$k" "B$k" |
			awk -F, -v L="B$k" 'NR > 1 && $6 == L {
				n++; nn = $8; if ($NF != "no significant change") { bad++; what = what " " $3 "=" $NF }
				if ($26 != "" && (min == "" || $26 + 0 < min)) min = $26 + 0 }
			END { if (!n) print "none"; else if (bad) printf "CHANGE%s (n=%d per side, min p %.3g)\n", what, nn, min;
			      else printf "no significant change (%d rows, n=%d per side, min p %.3g)\n", n, nn, min }')
		# "too few samples" (welch needs 2 per side): not an A/A comparison
		case $v in none | *too\ few\ samples*) continue ;; esac
		aa_total=$((aa_total + 1))
		case $v in no\ significant*) aa_clean=$((aa_clean + 1)) ;; esac
		printf '   block %2d %-5s %s\n' $((k + 1)) "$wl" "$v"
	done
done
if [ "$aa_total" -gt 0 ]; then
	say "   A/A on disjoint blocks: $aa_clean of $aa_total comparisons \"no significant change\"" \
		"($(awk -v a="$aa_clean" -v t="$aa_total" 'BEGIN { printf "%.0f", 100 * a / t }')%;" \
		"target >= 95%; a pft comparison has 5 metric rows, BH-adjusted together)"
fi

# ---- 3. power on the pooled samples ---------------------------------------
# power.c is bench material, built here (not by the Makefile)
POWER=$W/power
# shellcheck disable=SC2046 # the include flags are words
gcc -std=gnu11 -O2 -Wall -Wextra -Werror $(make -s --no-print-directory host-inc) \
	-o "$POWER" bench/power.c "$BUILD/libmmbench.a" -lyaml -lsqlite3 -ldl -lpthread -lm ||
	{ echo "error: building bench/power.c failed" >&2; exit 1; }
pool_power() {	# title, then power.c args
	say ""
	say "== $1"
	shift
	"$POWER" --db "$DB" --trials "$TRIALS" --seed "$SEED" "$@"
}
pool_power "aim9 brk_test ${TESTTIME}s: A and B pooled (one kernel)" \
	--label A --label B --workload aim9 --metric brk_test.ops_per_sec --disjoint 3 --find80 "$FIND80" \
	> "$W/aim9.out"
cat "$W/aim9.out"
pool_power "pft ${PFT_SIZE} 1 thread faults/sec: A and B pooled" \
	--label A --label B --workload pft --metric faults/sec --disjoint 5 --find80 "$FIND80" > "$W/pft.out"
cat "$W/pft.out"
pool_power "pft ${PFT_SIZE} 1 thread faults/cpu (CPU time, less sensitive to waiting for a CPU)" \
	--label A --label B --workload pft --metric faults/cpu --disjoint 5 --find80 "$FIND80" > "$W/pftcpu.out"
cat "$W/pftcpu.out"
n15=$(sqlite3 "$DB" "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id
	WHERE r.experiment = 'aim9-recipe-brk' AND r.status IN ('complete','interrupted');")
if [ "${n15:-0}" -ge 6 ]; then
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
	say "   mmbench (welch): 80% power not reached by n=$(sed -n 's/^welch .* by n=\([0-9]*\)$/\1/p' "$W/aim9.out") at ${TESTTIME} s per sample"
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
# Equal machine time, 180 s per kernel (the recipe's budget): how large a
# regression does each approach catch?  welch on 180/TESTTIME short
# samples vs the band rule (and welch) on the recipe's 12 x 15 s samples.
neq=$((180 / TESTTIME))
say ""
say "== equal machine time, 180 s per kernel: detection % by size of the regression"
printf '   %-44s' "regression:"
for sh in 2 5 10 20; do printf ' %6s' "$sh%"; done
printf '\n'
eqrow() {	# title, test column (1..4), power.c args...
	local title=$1 col=$2
	shift 2
	printf '   %-44s' "$title"
	for sh in 2 5 10 20; do
		"$POWER" --db "$DB" --trials "$TRIALS" --seed "$SEED" --shift "$sh" "$@" > "$W/eq.out" 2>&1 ||
			{ printf ' %6s' "-"; continue; }
		printf ' %6s' "$(awk -F'|' -v c="$col" '$1 ~ /^ *[0-9]+ *$/ { split($3, a, " "); print a[c]; exit }' "$W/eq.out")"
	done
	printf '\n'
}
eqrow "welch, n=$neq x ${TESTTIME} s (mmbench default)" 1 --label A --label B --workload aim9 \
	--metric brk_test.ops_per_sec --nmin "$neq" --nmax "$neq"
if [ -f "$W/r15.out" ]; then
	eqrow "mmtests band rule, n=12 x 15 s (the recipe)" 3 --label R15 --workload aim9 \
		--metric brk_test.ops_per_sec --nmin 12 --nmax 12
	eqrow "welch, n=12 x 15 s (recipe samples)" 1 --label R15 --workload aim9 \
		--metric brk_test.ops_per_sec --nmin 12 --nmax 12
fi
for f in pft pftcpu; do
	r30=$(row "$W/$f.out" 30)
	[ -n "$r30" ] && say "   pft ($f) at the pft-threads recipe's n=30, detection %: $(awk -F'|' '{ print $3 }' <<<"$r30" |
		awk '{ printf "welch %s, mwu %s, mmtests %s, lkp %s", $1, $2, $3, $4 }')"
done
say "   load now: $(load)"

# ---- 5. reference: the same analysis on synthetic normal noise -------------
# Not a measurement: what the four rules do at the noise of a quieter
# machine (seeded normal samples, 200 per pool).
say ""
say "== reference, SYNTHETIC normal noise (not measured): welch n for 80% power, and detection % at n=12"
for cv in 0.5 1 2 3; do
	awk -v cv="$cv" -v seed="$SEED" 'BEGIN { srand(seed);
		for (i = 0; i < 200; i++) { u = rand(); v = rand(); if (u < 1e-12) u = 1e-12;
			printf "%.6f\n", 100000 * (1 + cv / 100 * sqrt(-2 * log(u)) * cos(6.283185307179586 * v)) } }' \
		> "$W/syn.txt"
	"$POWER" --file "$W/syn.txt" --better higher --trials "$TRIALS" --seed "$SEED" \
		--nmin 3 --nmax 12 --find80 "$FIND80" > "$W/syn.out"
	r12=$(row "$W/syn.out" 12)
	printf '   CV %3s%%: welch n80 %-4s | at n=12 detection %%: %s | A/A false positive %%: %s\n' "$cv" \
		"$(sed -n 's/^result: n80.welch=\([^ ]*\).*/\1/p' "$W/syn.out")" \
		"$(awk -F'|' '{ print $3 }' <<<"$r12" | awk '{ printf "welch %s mwu %s mmtests %s lkp %s", $1, $2, $3, $4 }')" \
		"$(awk -F'|' '{ print $2 }' <<<"$r12" | awk '{ printf "welch %s mwu %s mmtests %s lkp %s", $1, $2, $3, $4 }')"
done
exit 0
