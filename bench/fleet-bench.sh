#!/bin/bash
# make bench BENCH_SAMPLES=100000000: a fleet-sized store (issue 31 item 4,
# not in CI).  BENCH_SAMPLES samples across FLEET_MACHINES (50) per-machine
# databases, each with two big labels (base, new: 1000 rows) and two small
# ones of its own (mNN-quick-a, mNN-quick-b: 20 rows x 10 samples), then
#   merge of the 50 DBs into an empty one     goal >= 5M samples/s
#     (db_merge_file() per DB, what `fleet collect` does for each job)
#   DB bytes per sample of the merged DB       goal <= 10
#   list runs                                  goal <= 0.1 s
#   compare of one machine's small labels      goal <= 0.1 s
#   compare --by machine base new (everything) goal <= 10 s
# The machines' DBs are one imported CSV (a machine's share, made by awk)
# copied 50 times, each copy given its own machine row, run UUIDs and small
# labels by sqlite3: making them costs a fraction of the measurement.
# Report only: fails when a command fails, never on a number.
set -eu
. "$(dirname "$0")/lib.sh"
B=${MMBENCH_BUILD:-build}
MMB=$B/mmbench
N=${BENCH_SAMPLES:?BENCH_SAMPLES: the fleet size in samples}
M=${FLEET_MACHINES:-50}
BENCH_REPEAT=${FLEET_BENCH_REPEAT:-3}
W=$(mktemp -d)
BENCH_W=$W
trap 'rm -rf "$W"' EXIT
command -v sqlite3 > /dev/null || {
	echo "fleet-bench: skipped: sqlite3 (the shell) is not installed"
	bench_row "fleet: merge of $M DBs" ">= 5M samples/s" - - - "not measured: no sqlite3 shell"
	exit 0
}
per=$((N / M))
small=200	# samples of each small label
big=$(((per - 2 * small) / 2))
[ "$big" -ge 1000 ] || { echo "fleet-bench: BENCH_SAMPLES=$N is too small for $M machines" >&2; exit 1; }

t0=$(date +%s.%N)
# one machine's share: label,run,... rows; big labels 1000 rows, small 20
awk -v big="$big" -v small="$small" 'BEGIN {
	srand(1);
	print "label,run,workload,metric,variant,iteration,value,unit,better";
	rows("base", big, 0, 1000); rows("new", big, 0.01, 1000);
	rows("quick-a", small, 0, 20); rows("quick-b", small, 0.02, 20);
}
function rows(label, n, shift, nrows,    per, w, v, m, i, r) {
	per = int(n / nrows);
	for (r = 0; r < nrows; r++) {
		w = int(r / 50); v = int(r / 5) % 10; m = r % 5;
		for (i = 1; i <= per; i++)
			printf "%s,1,wl%02d,metric%d,clients=%d,%d,%.4f,ops/s,%s\n", label, w, m, v + 1, i,
				1000 * (1 + shift * (m == 0)) + 20 * (rand() - 0.5), (m % 2) ? "lower" : "higher";
	}
}' > "$W/machine.csv"
"$MMB" -q import --db "$W/template.db" "$W/machine.csv"
rm -f "$W/machine.csv"
n_per=$(sqlite3 "$W/template.db" "SELECT sum(n) FROM sample_blocks")
dbs=()
for i in $(seq -w 1 "$M"); do
	cp "$W/template.db" "$W/m$i.db"
	sqlite3 "$W/m$i.db" "INSERT INTO machines (hostname, cpu_model, ncpus, mem_bytes)
			VALUES ('fleet-$i', 'bench CPU', 64, 274877906944);
		UPDATE runs SET machine_id = last_insert_rowid(), uuid = (lower(hex(randomblob(4))) ||
			'-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) ||
			'-a' || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))));
		UPDATE kernels SET label = 'm$i-' || label WHERE label LIKE 'quick-%';"
	dbs+=("$W/m$i.db")
done
rm -f "$W/template.db"
total=$((n_per * M))
gen=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs; $M machines x $n_per samples = $total; made in $gen s"

empty() { rm -f "$W"/all.db*; }
# merge: the fleet's size once per repeat, so best of 2 at most
mrg=$(BENCH_REPEAT=$((BENCH_REPEAT < 2 ? BENCH_REPEAT : 2)) bench_timed empty "$MMB" -q merge --db "$W/all.db" "${dbs[@]}")
read -r w c rss <<< "$mrg"
rate=$(awk -v n="$total" -v w="$w" 'BEGIN { printf "%.2f", n / w / 1e6 }')
echo "merge of $M DBs: $w s wall, $c s CPU, ${rate}M samples/s, peak RSS $((rss / 1024)) MB"
bench_row "fleet: merge of $M DBs ($total samples)" ">= 5M samples/s" "${rate}M samples/s ($w s)" - - \
	"$(bench_met "$rate >= 5")"
bench_row "fleet: merge peak RSS" "<= 64 MB" "$((rss / 1024)) MB" - - "$(bench_met "$rss <= 64 * 1024")"
bytes=$(stat -c %s "$W/all.db")
bps=$(awk -v b="$bytes" -v n="$total" 'BEGIN { printf "%.2f", b / n }')
echo "merged DB: $bytes bytes, $bps bytes/sample"
bench_row "fleet: DB bytes per sample" "<= 10" "$bps" - - "$(bench_met "$bps <= 10")"

# name goal_s CMD...: best wall against a goal in seconds
secs() {
	local name=$1 goal=$2 r w c rss
	shift 2
	r=$(bench_timed : "$@")
	read -r w c rss <<< "$r"
	echo "$name: $w s wall, $c s CPU, peak RSS $((rss / 1024)) MB"
	bench_row "fleet: $name" "<= $goal s" "$w s ($((rss / 1024)) MB)" - - "$(bench_met "$w <= $goal")"
}
one=$(printf 'm%02d' $(((M + 1) / 2)))
secs "list runs ($((4 * M)) runs)" 0.1 "$MMB" list runs --db "$W/all.db"
secs "compare of one machine's small labels" 0.1 "$MMB" compare --db "$W/all.db" "$one-quick-a" "$one-quick-b"
BENCH_REPEAT=1 secs "compare --by machine of everything" 10 \
	"$MMB" compare --db "$W/all.db" --by machine base new
