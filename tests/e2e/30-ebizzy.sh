#!/bin/bash
# ebizzy plugin: a tiny experiment through `mmbench run` stores plausible
# samples (positive records/s, one per-thread sample per worker whose sum is
# the total, CPU times with unit s and lower-is-better); every knob runs;
# -m with -M and a bad rng are config errors naming file:line:col (exit 2).
. "$(dirname "$0")/../e2e-lib.sh"
command -v sqlite3 >/dev/null || skip "sqlite3 CLI not installed"
[ -f "$MMBENCH_BUILD/workloads/ebizzy.so" ] || die "ebizzy.so not built"


cat > "$TMP/e.yaml" <<EOC
experiment: ebizzy-e2e
iterations: 2
warmup: 0
workloads:
  - name: ebizzy
    params:
      threads: [1, 2]
      duration: 1s
  - name: ebizzy
    iterations: 1
    params:
      threads: 2
      duration: 1s
      rng: [compat]
      mmap_always: true
      touch_only: true
      random_size: true
      mprotect: true
  - name: ebizzy
    iterations: 1
    params:
      threads: 2
      duration: 500ms
      chunks: 4
      chunk_size: 64K
      mmap_never: [true]
      holes: true
      byte_copy: true
      linear_search: true
EOC
run "$TMP/e.yaml"
cat "$TMP/err"
[ $rc = 0 ] || { cat "$TMP/out"; die "mmbench run exited $rc"; }
[ "$(q "SELECT status FROM runs")" = complete ] || die "run not complete"
[ "$(q "SELECT count(*) FROM iterations WHERE status = 'failed'")" = 0 ] || die "failed iterations: $(q "SELECT reason FROM iterations WHERE status = 'failed'")"

# metric|unit|better
while IFS='|' read -r m unit better; do
	row=$(q "SELECT count(*), min(value), group_concat(DISTINCT unit), group_concat(DISTINCT better)
		 FROM samples WHERE workload = 'ebizzy' AND metric = '$m'")
	IFS='|' read -r n min u b <<<"$row"
	[ "$n" -gt 0 ] || die "no $m samples"
	[ "$u" = "$unit" ] || die "$m: unit '$u', expected '$unit'"
	[ "$b" = "$better" ] || die "$m: better '$b', expected '$better'"
	case $m in
	throughput*) awk -v x="$min" 'BEGIN { exit !(x > 0) }' || die "$m: non-positive sample $min" ;;
	*) awk -v x="$min" 'BEGIN { exit !(x >= 0) }' || die "$m: negative sample $min" ;;
	esac
done <<'EOM'
throughput|records/s|1
throughput.per_thread|records/s|1
time.user|s|-1
time.sys|s|-1
EOM

# The default variants search and copy in user space, so they have user time.
# The mmap/touch-only variants spend nearly all of it in the kernel: a fast
# machine can give them no user tick at all, and 0.0 s is an honest sample.
umin=$(q "SELECT min(value) FROM samples WHERE metric = 'time.user' AND variant LIKE 'threads=%'")
awk -v x="$umin" 'BEGIN { exit !(x > 0) }' || die "time.user of the default variants: non-positive sample $umin"

# one throughput per iteration; one per-thread sample per worker
[ "$(q "SELECT count(*) FROM samples WHERE variant = 'threads=1' AND metric = 'throughput'")" = 2 ] || die "threads=1: expected 2 throughput samples"
[ "$(q "SELECT count(*) FROM samples WHERE variant = 'threads=2' AND metric = 'throughput.per_thread'")" = 4 ] || die "threads=2: expected 4 per-thread samples (2 threads x 2 iterations)"
# the per-thread rates add up to the total, iteration by iteration
bad=$(q "SELECT count(*) FROM (SELECT t.iteration_id, t.value AS tot, sum(p.value) AS s
	 FROM samples t JOIN samples p ON p.iteration_id = t.iteration_id AND p.metric = 'throughput.per_thread'
	 WHERE t.metric = 'throughput' GROUP BY t.iteration_id) WHERE abs(tot - s) > 1e-6 * tot")
[ "$bad" = 0 ] || die "per-thread rates do not add up to the total in $bad iterations"
# every knob combination ran (the SPF -mTRp set and the rest)
[ "$(q "SELECT count(*) FROM samples WHERE variant = 'rng=compat' AND metric = 'throughput' AND value > 0")" = 1 ] || die "-mTRp variant did not measure"
# -M measures with glibc malloc, or (sanitizer build) skips saying why
[ "$(q "SELECT count(*) FROM samples WHERE variant = 'mmap_never=true' AND metric = 'throughput' AND value > 0")" = 1 ] ||
	q "SELECT reason FROM iterations WHERE variant = 'mmap_never=true' AND status = 'skipped'" | grep -q "needs glibc malloc" ||
	die "-MPlz variant did not measure"

# -m with -M: the plugin's check_params, reported at the workload's position
cat > "$TMP/bad.yaml" <<EOC
experiment: bad
workloads:
  - name: ebizzy
    params:
      mmap_always: true
      mmap_never: true
EOC
run "$TMP/bad.yaml"
[ $rc = 2 ] || die "-m with -M: expected exit 2, got $rc"
grep -q "bad.yaml:3:11:.*mmap_always (-m) and mmap_never (-M) exclude each other" "$TMP/err" || die "-m with -M message: $(cat "$TMP/err")"

cat > "$TMP/bad2.yaml" <<EOC
experiment: bad
workloads:
  - name: ebizzy
    params:
      rng: fast
EOC
run "$TMP/bad2.yaml"
[ $rc = 2 ] || die "bad rng: expected exit 2, got $rc"
grep -q "bad2.yaml:5:12:.*compat" "$TMP/err" || die "bad rng message: $(cat "$TMP/err")"
[ "$(q "SELECT count(*) FROM runs")" = 1 ] || die "a bad config created a run"
echo "ok: ebizzy e2e"
