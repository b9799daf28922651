#!/bin/bash
# make bench: import and compare speed on a database of 1M samples.
#   import  >= 1,000,000 samples/s (CSV, one transaction, packed blocks)
#   compare <= 1 s over a DB holding 1M samples, imported (blocks) and as
#           the runner writes them (a row per sample)
# Two labels of 500k samples each: 20 workloads x 10 variants x 5 metrics
# = 1000 rows, 500 samples per row and label.  Best of 3 (noisy shared VM).
set -eu
MMB=${MMBENCH_BUILD:-build}/mmbench
# the samples view reads blocks through mmb_samples() (docs/store.md)
MMB_SQLEXT=$(cd "${MMBENCH_BUILD:-build}" && pwd)/sqlite/mmbsamples
sqlite3() { command sqlite3 -cmd ".load $MMB_SQLEXT" "$@"; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
N=${COMPARE_BENCH_SAMPLES:-1000000}
half=$((N / 2))

gen() {	# label seed shift -> CSV of N/2 samples
	awk -v n="$half" -v seed="$2" -v shift="$3" 'BEGIN {
		srand(seed);
		print "workload,metric,variant,iteration,value,unit,better";
		per = n / 1000;
		for (w = 0; w < 20; w++)
			for (v = 0; v < 10; v++)
				for (m = 0; m < 5; m++)
					for (i = 1; i <= per; i++)
						printf "wl%02d,metric%d,clients=%d,%d,%.4f,ops/s,%s\n",
							w, m, v + 1, i,
							1000 * (1 + shift * (m == 0)) + 20 * (rand() - 0.5),
							(m % 2) ? "lower" : "higher";
	}' > "$W/$1.csv"
}
gen base 1 0
gen new 2 0.01

# "wall cpu" of a command (cpu = user + sys), via /usr/bin/time or bash
timed() {
	local f=$W/time
	if [ -x /usr/bin/time ]; then
		if ! /usr/bin/time -o "$f" -f '%e %U %S' "$@" > "$W/out"; then
			echo "999 999"	# a failed run never counts as fast
			return
		fi
		awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$f"
	else
		local t0 t1
		t0=$(date +%s.%N); "$@" > "$W/out"; t1=$(date +%s.%N)
		awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f -\n", b - a }'
	fi
}
best() {	# "wall cpu" lines on stdin -> the line with the lowest wall
	sort -n | head -n 1
}
import_both() {
	rm -f "$W"/db*
	"$MMB" -q import --db "$W/db" --name base "$W/base.csv" &&
	"$MMB" -q import --db "$W/db" --name new "$W/new.csv"
}

r=$(for _ in 1 2 3; do timed bash -c "$(declare -f import_both); W='$W' MMB='$MMB' import_both"; done | best)
t_imp=${r% *}; c_imp=${r#* }
rate=$(awk -v n="$N" -v t="$t_imp" 'BEGIN { printf "%d", n / t }')
crate=$(awk -v n="$N" -v t="$c_imp" 'BEGIN { printf "%d", (t + 0 > 0) ? n / t : 0 }')
samples=$(sqlite3 "$W/db" 'select count(*) from samples' 2>/dev/null || echo "$N")

ok=0
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs (wall times suffer on a busy VM)"
printf 'import : %d samples in %.3f s wall = %d samples/s; %.3f s CPU = %d samples/s (target >= 1000000/s)\n' \
	"$N" "$t_imp" "$rate" "$c_imp" "$crate"
[ "$rate" -ge 1000000 ] || ok=1
for f in text mmtests lkp markdown csv json; do
	args=()
	[ "$f" = text ] || args=(--format "$f")
	r=$(for _ in 1 2 3; do timed "$MMB" compare --db "$W/db" "${args[@]}" base new; done | best)
	printf 'compare: %d samples, 1000 rows, --format %-8s %.3f s wall, %.3f s CPU (target <= 1 s)\n' \
		"$samples" "$f" "${r% *}" "${r#* }"
	awk -v t="${r% *}" 'BEGIN { exit !(t <= 1.0) }' || ok=1
done
# The same samples as the runner stores them (a sample_values row each).
if command -v sqlite3 > /dev/null; then
	cp "$W/db" "$W/rows.db"
	sqlite3 "$W/rows.db" "BEGIN;
		INSERT INTO sample_values (run_id, series_id, iteration, seq, value)
			SELECT run_id, series_id, iteration, seq, value FROM samples ORDER BY id;
		DELETE FROM sample_blocks; COMMIT;"
	r=$(for _ in 1 2 3; do timed "$MMB" compare --db "$W/rows.db" base new; done | best)
	printf 'compare: %d samples as runner rows, 1000 rows, %.3f s wall, %.3f s CPU (target <= 1 s)\n' \
		"$(sqlite3 "$W/rows.db" 'select count(*) from sample_values')" "${r% *}" "${r#* }"
	awk -v t="${r% *}" 'BEGIN { exit !(t <= 1.0) }' || ok=1
fi
if [ $ok -eq 0 ]; then echo "compare-bench: targets met"; else echo "compare-bench: TARGET MISSED"; fi
exit $ok
