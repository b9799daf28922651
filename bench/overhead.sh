#!/bin/bash
# Harness overhead outside the timed region.
#  1. Zero-work plugin, N iterations: wall / N = the fixed cost the harness
#     adds per iteration (fork, pipe, monitors, one SQLite commit).
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
N=${N:-300}

cat > "$TMP/zero.yaml" <<EOC
experiment: overhead-zero
iterations: $N
warmup: 0
workloads:
  - name: good_minimal
EOC
t0=$(date +%s.%N)
MMBENCH_PLUGIN_PATH=$B/tests/plugins "$MMB" run "$TMP/zero.yaml" -q > /dev/null
t1=$(date +%s.%N)
per=$(echo "($t1 - $t0) * 1000 / $N" | bc -l)
printf 'zero-work iteration: %.2f ms per iteration (fork + pipe + monitors + commit), %d iterations\n' "$per" "$N"

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
              total, inside, gaps, 100.0 * gaps / total, timed, 100.0 * timed / inside) FROM t, pft;"

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
