#!/bin/bash
# e2e: a tiny pft experiment (64M, clients [1,2], threads and processes,
# 2 measured iterations) through `mmbench run` into a temp database; check
# that every variant stored positive faults/sec and faults/cpu samples with
# the right unit and direction, and the time metrics with theirs.
set -u

B=${MMBENCH_BUILD:-build}
MMB=$B/mmbench
fail() { echo "FAIL: $*" >&2; exit 1; }

[ -x "$MMB" ] || fail "$MMB not built"
command -v sqlite3 >/dev/null || { echo "SKIP: sqlite3 CLI not installed"; exit 77; }
[ -f "$B/workloads/pft.so" ] || fail "$B/workloads/pft.so not built"

T=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$T"' EXIT

# THP/mTHP would turn 16384 base-page faults into a few large-folio faults
# (too little CPU time to measure): pin every size to never when we may.
ENV=""
THP=/sys/kernel/mm/transparent_hugepage
if [ "$(id -u)" = 0 ] && [ -w "$THP/enabled" ]; then
	ENV=$'environment:\n  thp: never\n'
	M=""
	for d in "$THP"/hugepages-*kB; do
		[ -e "$d/enabled" ] || continue
		kb=${d##*/hugepages-}; kb=${kb%kB}
		M="$M${M:+, }${kb}K: never"
	done
	[ -n "$M" ] && ENV="$ENV  mthp: { $M }"$'\n'
fi

cat > "$T/pft.yaml" <<EOF
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

# Runs never overlap (system settings lock); wait while someone else's runs.
for try in $(seq 1 120); do
	"$MMB" run "$T/pft.yaml" --db "$T/t.db" -q >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -ne 0 ] && grep -q "runs must not overlap" "$T/err" || break
	rm -f "$T/t.db" "$T/t.db-wal" "$T/t.db-shm"
	sleep 5
done
if [ $rc -ne 0 ]; then
	if grep -qi "not available" "$T/out" "$T/err"; then
		echo "SKIP: mmbench run is not available yet"
		exit 77
	fi
	cat "$T/out" "$T/err" >&2
	fail "mmbench run exited $rc"
fi

q() { sqlite3 -batch -noheader "$T/t.db" "$1"; }

[ "$(q "SELECT count(*) FROM runs WHERE status='complete'")" = 1 ] ||
	fail "run not recorded as complete: $(q 'SELECT id, status FROM runs')"

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
				fail "$v $m: expected 2 samples from 2 iterations, got '$row'"
			[ "$u" = "$unit" ] || fail "$v $m: unit '$u', expected '$unit'"
			[ "$b" = "$better" ] || fail "$v $m: better '$b', expected '$better'"
			case $m in
			faults/*|elapsed)
				awk -v x="$min" 'BEGIN { exit !(x > 0) }' ||
					fail "$v $m: non-positive sample $min" ;;
			*)
				awk -v x="$min" 'BEGIN { exit !(x >= 0) }' ||
					fail "$v $m: negative sample $min" ;;
			esac
		done <<<"$METRICS"
	done
done

# faults/sec = pages / elapsed, sample by sample (pages = 16384 for 64M).
row=$(q "SELECT count(*), sum(abs(f.value * e.value - 16384) > 1)
	 FROM samples f JOIN samples e
	 ON e.iteration_id = f.iteration_id AND e.variant = f.variant
	 WHERE f.workload='pft' AND f.metric='faults/sec' AND e.metric='elapsed'")
[ "$row" = "8|0" ] || fail "faults/sec * elapsed != 16384 pages (pairs|bad: $row)"

# Warm-up iterations must not be stored as samples.
n=$(q "SELECT count(*) FROM samples WHERE workload='pft'")
[ "$n" = 40 ] || fail "expected 40 samples (4 variants x 2 iterations x 5 metrics), got $n"

echo "ok: pft e2e (4 variants, 5 metrics each)"
