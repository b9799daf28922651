#!/bin/bash
# e2e: the will-it-scale plugin.  Every testcase runs (thread mode, 2 tasks,
# 1 s) and stores positive per_thread_ops and throughput = nr_task x
# per-task ops; process mode stores per_process_ops; samples are one per
# second after the warm-up; a task error fails the iteration with its
# reason; bad params are config errors (exit 2).
. "$(dirname "$0")/../e2e-lib.sh"
B=${MMBENCH_BUILD:-build}
[ -x "$MMB" ] || die "$MMB not built"
[ -f "$B/workloads/will-it-scale.so" ] || die "will-it-scale plugin not built"
command -v sqlite3 >/dev/null || skip "sqlite3 CLI not installed"
export MMBENCH_STATE=${MMBENCH_STATE:-$TMP/state}

cat >"$TMP/all.yaml" <<'Y'
experiment: wis-e2e
iterations: 1
warmup: 0
workloads:
  - name: will-it-scale
    params:
      test: [page_fault1, page_fault2, page_fault3, brk1, brk2, mmap1, mmap2, malloc1, malloc2, tlb_flush1, tlb_flush2, tlb_flush3]
      mode: thread
      nr_task: 2
      size: 8M
      warmup: 0s
      duration: 1s
  - name: will-it-scale
    params:
      test: [page_fault1, brk1]
      mode: [process]
      nr_task: 2
      size: 8M
      warmup: 1s
      duration: 2s
Y
"$MMB" -q run "$TMP/all.yaml" --name wis >"$TMP/out" 2>"$TMP/err" || die "run failed: $(cat "$TMP/err")"
for t in page_fault1 page_fault2 page_fault3 brk1 brk2 mmap1 mmap2 malloc1 malloc2 tlb_flush1 tlb_flush2 tlb_flush3; do
	n=$(q "select count(*) from samples where variant = 'test=$t' and metric = 'per_thread_ops'
	       and unit = 'ops/s' and better = 1 and value > 0")
	[ "$n" = 1 ] || die "$t: $n positive per_thread_ops samples, want 1"
done
# throughput is the sum over tasks: nr_task x the per-task value, sample by sample
bad=$(q "select count(*) from samples a join samples b on a.iteration_id = b.iteration_id and a.seq = b.seq
         and a.variant = b.variant and a.metric like 'per_%_ops' and b.metric = 'throughput'
         where abs(b.value - 2 * a.value) > 1e-6 * b.value")
[ "$bad" = 0 ] || die "$bad samples where throughput != 2 x per-task ops"
# process mode: per_process_ops, 2 one-second samples, no per_thread_ops
for t in page_fault1 brk1; do
	[ "$(q "select count(*) from samples where variant = 'test=$t,mode=process' and metric = 'per_process_ops' and value > 0")" = 2 ] ||
		die "$t process: want 2 per_process_ops samples"
	[ "$(q "select count(*) from samples where variant = 'test=$t,mode=process' and metric = 'per_thread_ops'")" = 0 ] ||
		die "$t process: per_thread_ops recorded"
done
[ "$(q "select count(*) from iterations where status != 'ok'")" = 0 ] || die "failed iterations: $(q 'select * from iterations where status != "ok"')"

# a task error fails the iteration with the reason
cat >"$TMP/bad.yaml" <<'Y'
experiment: wis-bad
iterations: 1
warmup: 0
workloads:
  - name: will-it-scale
    params:
      test: page_fault2
      dir: /nonexistent/dir
      warmup: 0s
      duration: 1s
Y
set +e
"$MMB" -q run "$TMP/bad.yaml" --name wis-bad >"$TMP/out2" 2>"$TMP/err2"; rc=$?
set -e
[ $rc = 1 ] || die "task error: exit $rc, want 1"
q "select reason from iterations where status = 'failed'" | grep -q 'mkstemp in dir: No such file or directory' ||
	die "failure reason not recorded: $(q 'select status, reason from iterations')"

# config errors: exit 2
sed 's/test: page_fault2/test: page_fault9/' "$TMP/bad.yaml" >"$TMP/bad2.yaml"
set +e
"$MMB" run "$TMP/bad2.yaml" >/dev/null 2>"$TMP/err3"; rc=$?
set -e
[ $rc = 2 ] || die "unknown test: exit $rc, want 2"
grep -q 'page_fault1' "$TMP/err3" || die "error does not list the testcases: $(cat "$TMP/err3")"
echo ok
