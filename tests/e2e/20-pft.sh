#!/bin/bash
# e2e: a tiny pft experiment (64M, clients [1,2], threads and processes,
# 2 measured iterations) through `mmbench run` into a temp database; check
# that every variant stored positive faults/sec and faults/cpu samples with
# the right unit and direction, and the time metrics with theirs.
. "$(dirname "$0")/../e2e-lib.sh"
command -v sqlite3 >/dev/null || skip "sqlite3 CLI not installed"
[ -f "${MMBENCH_BUILD:-build}/workloads/pft.so" ] || die "pft.so not built"

# THP/mTHP would turn 16384 base-page faults into a few large-folio faults
# (too little CPU time to measure): pin every size to never when we may.
ENV=$(thp_never_env)
cat > "$TMP/pft.yaml" <<EOF
experiment: pft-e2e
iterations: 2
warmup: 1
$ENV
workloads:
  - name: pft
    params:
      size: 64M
      clients: [1, 2]
      mode: [threads, processes]
EOF

run "$TMP/pft.yaml"
[ $rc -eq 0 ] || die "mmbench run exited $rc: $(cat "$TMP/out" "$TMP/err")"

[ "$(q "SELECT count(*) FROM runs WHERE status='complete'")" = 1 ] ||
	die "run not recorded as complete: $(q 'SELECT id, status FROM runs')"

# metric|unit|better
METRICS="faults/sec|faults/s|1
faults/cpu|faults/cpu-s|1
system|s|-1
elapsed|s|-1
user|s|-1"

for mode in threads processes; do
	for c in 1 2; do
		v="clients=$c,mode=$mode"
		while IFS='|' read -r m unit better; do
			row=$(q "SELECT count(*), count(DISTINCT iteration), min(value),
				 group_concat(DISTINCT unit), group_concat(DISTINCT better)
				 FROM samples WHERE workload='pft' AND variant='$v' AND metric='$m'")
			IFS='|' read -r n iters min u b <<<"$row"
			[ "$n" = 2 ] && [ "$iters" = 2 ] ||
				die "$v $m: expected 2 samples from 2 iterations, got '$row'"
			[ "$u" = "$unit" ] || die "$v $m: unit '$u', expected '$unit'"
			[ "$b" = "$better" ] || die "$v $m: better '$b', expected '$better'"
			case $m in
			faults/*|elapsed)
				awk -v x="$min" 'BEGIN { exit !(x > 0) }' ||
					die "$v $m: non-positive sample $min" ;;
			*)
				awk -v x="$min" 'BEGIN { exit !(x >= 0) }' ||
					die "$v $m: negative sample $min" ;;
			esac
		done <<<"$METRICS"
	done
done

# faults/sec = pages / elapsed, sample by sample (pages = 16384 for 64M).
row=$(q "SELECT count(*), sum(abs(f.value * e.value - 16384) > 1)
	 FROM samples f JOIN samples e
	 ON e.iteration_id = f.iteration_id AND e.variant = f.variant
	 WHERE f.workload='pft' AND f.metric='faults/sec' AND e.metric='elapsed'")
[ "$row" = "8|0" ] || die "faults/sec * elapsed != 16384 pages (pairs|bad: $row)"

# Warm-up iterations must not be stored as samples.
n=$(q "SELECT count(*) FROM samples WHERE workload='pft'")
[ "$n" = 40 ] || die "expected 40 samples (4 variants x 2 iterations x 5 metrics), got $n"

echo "ok: pft e2e (4 variants, 5 metrics each)"
