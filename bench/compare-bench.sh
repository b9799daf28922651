#!/bin/bash
# make bench: import and compare speed on a database of 1M samples.
#   import  >= 1,000,000 samples/s (CSV, one transaction, prepared statements)
#   compare <= 1 s over a DB holding 1M samples (one ordered query)
# Two labels of 500k samples each: 20 workloads x 10 variants x 5 metrics
# = 1000 rows, 500 samples per row and label.  Best of 3 (noisy shared VM).
set -eu
MMB=${MMBENCH_BUILD:-build}/mmbench
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

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (b < a) ? b : a }'; }

t_imp=999
for _ in 1 2 3; do
	rm -f "$W"/db*
	t0=$(now)
	"$MMB" -q import --db "$W/db" --name base "$W/base.csv"
	"$MMB" -q import --db "$W/db" --name new "$W/new.csv"
	t_imp=$(min "$t_imp" "$(secs "$t0" "$(now)")")
done
rate=$(awk -v n="$N" -v t="$t_imp" 'BEGIN { printf "%d", n / t }')
samples=$(sqlite3 "$W/db" 'select count(*) from samples' 2>/dev/null || echo "$N")

ok=0
printf 'import : %d samples in %.3f s = %d samples/s (target >= 1000000)\n' "$N" "$t_imp" "$rate"
[ "$rate" -ge 1000000 ] || ok=1
for f in text mmtests lkp markdown csv json; do
	args=()
	[ "$f" = text ] || args=(--format "$f")
	t=999
	for _ in 1 2 3; do
		t0=$(now)
		"$MMB" compare --db "$W/db" "${args[@]}" base new > "$W/out"
		t=$(min "$t" "$(secs "$t0" "$(now)")")
	done
	printf 'compare: %d samples, %d rows, --format %-8s %.3f s (target <= 1 s)\n' \
		"$samples" 1000 "$f" "$t"
	awk -v t="$t" 'BEGIN { exit !(t <= 1.0) }' || ok=1
done
if [ $ok -eq 0 ]; then echo "compare-bench: targets met"; else echo "compare-bench: TARGET MISSED"; fi
exit $ok
