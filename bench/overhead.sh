#!/bin/bash
# Harness overhead outside the timed region.
#  1. Zero-work plugin, N iterations: wall / N = the fixed cost the harness
#     adds per iteration (fork, pipe, monitors, one SQLite commit), beside
#     the machine's own floor: a bare fork + exit + wait (bench/fork-floor.c).
#  2. A real pft run: gaps between consecutive iterations (from the DB's
#     started/elapsed columns) as a share of the whole run.
set -eu
B=${MMBENCH_BUILD:-build}
# the samples view reads blocks through mmb_samples() (docs/store.md)
MMB_SQLEXT=$(cd "$B" && pwd)/sqlite/mmbsamples
sqlite3() { command sqlite3 -cmd ".load $MMB_SQLEXT" "$@"; }
MMB=$B/mmbench
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export MMBENCH_DB=$TMP/db MMBENCH_STATE=$TMP
. "$(dirname "$0")/lib.sh"
N=${N:-100}

cat > "$TMP/zero.yaml" <<EOC
experiment: overhead-zero
iterations: $N
warmup: 0
workloads:
  - name: good_minimal
EOC
# the marginal cost: runs of N and 4N iterations, so that what a run pays
# once (start, pre-flight, plugin checks, the summary) cancels out
zero_run() {	# iterations -> wall seconds
	sed "s/^iterations: .*/iterations: $1/" "$TMP/zero.yaml" > "$TMP/zero-$1.yaml"
	local t0 t1
	t0=$(date +%s.%N)
	MMBENCH_PLUGIN_PATH=$B/tests/plugins "$MMB" run "$TMP/zero-$1.yaml" -q > /dev/null || true
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc -l
}
w1=$(zero_run "$N")
w4=$(zero_run $((4 * N)))
per=$(echo "($w4 - $w1) * 1000 / (3 * $N)" | bc -l)
printf 'zero-work iteration: %.2f ms per iteration (fork + pipe + monitors + commit), runs of %d and %d iterations: %.2f s and %.2f s\n' \
	"$per" "$N" $((4 * N)) "$w1" "$w4"
# the machine's floor in the same run: a small process's fork + exit + wait,
# and one page write after a fork (bench/fork-floor.c)
floor=- wp=-
if [ -x "$B/bench/fork-floor" ]; then
	read -r floor wp < <("$B/bench/fork-floor" 300)
	printf 'this machine: fork + _exit + waitpid of a small process %.3f ms; a page written after a fork %.1f us\n' \
		"$floor" "$wp"
fi
# the harness process alone (not its children): CPU and page faults per
# iteration, marginal over N -> 4N like the wall time
if command -v perf >/dev/null && perf stat -i -e minor-faults -x, -o /dev/null -- true 2>/dev/null; then
	parent() {	# iterations -> "task-clock-ms minor-faults"
		MMBENCH_PLUGIN_PATH=$B/tests/plugins perf stat -i -e task-clock,minor-faults -x, -o "$TMP/stat" \
			-- "$MMB" run "$TMP/zero-$1.yaml" -q > /dev/null 2>&1 || true
		awk -F, '$3 == "task-clock" { c = $1 } $3 == "minor-faults" { f = $1 } END { print c, f }' "$TMP/stat"
	}
	read -r c1 f1 < <(parent "$N")
	read -r c4 f4 < <(parent $((4 * N)))
	awk -v c1="$c1" -v c4="$c4" -v f1="$f1" -v f4="$f4" -v n="$N" -v wp="$wp" 'BEGIN {
		f = (f4 - f1) / (3 * n);
		printf "the harness process per iteration: %.2f ms CPU, %.0f page faults", (c4 - c1) / (3 * n), f;
		if (wp != "-") printf " (about %.2f ms at %.1f us a fault)", f * wp / 1000, wp;
		printf "\n" }'
fi
verdict=$(bench_met "$per <= 1")
if [ "$floor" != - ] && awk "BEGIN { exit !($floor > 1) }"; then
	verdict="$verdict: this machine's bare fork + exit + wait alone is $floor ms"
fi
bench_row "empty iteration (harness cost)" "<= 1 ms" "$(printf '%.2f ms' "$per")" \
	"$([ "$floor" = - ] && echo - || echo "bare fork+exit+wait $floor ms")" \
	"$([ "$floor" = - ] && echo - || awk -v a="$per" -v b="$floor" 'BEGIN { printf "%.1f", a / b }')" "$verdict"
# where it goes: the harness and its iteration children by shared object
if command -v perf >/dev/null && perf record -q -e cpu-clock -o "$TMP/perf.data" -- true 2>/dev/null; then
	sed "s/^iterations: .*/iterations: $N/" "$TMP/zero.yaml" > "$TMP/zero-p.yaml"
	MMBENCH_PLUGIN_PATH=$B/tests/plugins perf record -q -F 2000 -e cpu-clock -o "$TMP/perf.data" \
		-- "$MMB" run "$TMP/zero-p.yaml" -q > /dev/null 2>&1 || true
	echo "where an empty iteration's CPU goes (perf, cpu-clock, by object):"
	perf report -q -i "$TMP/perf.data" --sort dso --stdio 2>/dev/null | awk 'NF && $1 ~ /%$/' | head -8 |
		sed 's/^/  /'
fi

cat > "$TMP/pft.yaml" <<EOC
experiment: overhead-pft
iterations: 10
warmup: 0
workloads:
  - name: pft
    params: { size: 512M, clients: 1 }
EOC
"$MMB" run "$TMP/pft.yaml" -q > /dev/null
sqlite3 "$MMBENCH_DB" "
WITH it AS (SELECT started, elapsed, lead(started) OVER (ORDER BY id) AS next FROM iterations
            WHERE run_id = (SELECT max(id) FROM runs)),
     t AS (SELECT sum(elapsed) AS inside, max(started + elapsed) - min(started) AS total,
                  sum(next - started - elapsed) AS gaps FROM it),
     pft AS (SELECT sum(value) AS timed FROM samples WHERE metric = 'elapsed'
             AND run_id = (SELECT max(id) FROM runs))
SELECT printf('pft 512M x10: run %.3f s, iteration children %.3f s, harness gaps %.4f s = %.3f%% of the run; pft timed region %.3f s (%.1f%% of the children: the plugin''s own untimed setup/teardown)',
              total, inside, gaps, 100.0 * gaps / total, timed, 100.0 * timed / inside) FROM t, pft;" |
	tee "$TMP/pft.line"
gap=$(sed -n 's/.* = \([0-9.]*\)% of the run.*/\1/p' "$TMP/pft.line")
[ -n "$gap" ] && bench_row "harness gaps, pft 512M x10" "<= 0.1% of the run" "$gap%" - - \
	"$(bench_met "$gap <= 0.1")"

# 3. The per-iteration counters (docs/counters.md) of the same pft run: what
#    opening, enabling and reading them cost the child, outside the timed
#    region, per iteration and added to the gaps as a share of the run.
sqlite3 "$MMBENCH_DB" "
WITH it AS (SELECT id, started, elapsed, lead(started) OVER (ORDER BY id) AS next FROM iterations
            WHERE run_id = (SELECT max(id) FROM runs)),
     t AS (SELECT count(*) AS n, max(started + elapsed) - min(started) AS total,
                  sum(next - started - elapsed) AS gaps FROM it),
     c AS (SELECT coalesce(sum(m.delta), 0) / 1000.0 AS secs, count(m.delta) AS nrows
           FROM monitors m JOIN it ON it.id = m.iteration_id
           WHERE m.source = 'counters' AND m.key = 'overhead_ms')
SELECT CASE WHEN c.nrows = 0 THEN 'counters: none recorded (counters: none, or no perf_event_open here)'
       ELSE printf('counters: %.2f ms per iteration = %.3f%% of the run; with the harness gaps %.3f%% (target: under 1%% all told, with the interference record below)',
                   1000.0 * c.secs / c.nrows, 100.0 * c.secs / t.total, 100.0 * (c.secs + t.gaps) / t.total) END
FROM t, c;"
