#!/bin/bash
# e2e: the vm-scalability plugin.  Every case of the shipped quick config
# runs (32M, two tasks, one iteration) and stores lkp's metrics: positive
# throughput with median <= throughput, stddev% and workload (the KB the
# size asks for); free_time only where the case frees memory, the _fault
# metrics only for the truncate cases; mremap-xread adds its move as an
# entry.  Hugetlb cases run (root: pages reserved, then released) or say
# "no hugetlb pages".  unit_size makes rounds; bad params exit 2.
. "$(dirname "$0")/../e2e-lib.sh"
B=${MMBENCH_BUILD:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
[ -x "$MMB" ] || die "$MMB not built"
[ -f "$B/workloads/vm-scalability.so" ] || die "vm-scalability plugin not built"
command -v sqlite3 >/dev/null || skip "sqlite3 CLI not installed"
export MMBENCH_STATE=${MMBENCH_STATE:-$TMP/state}
hp_before=$(cat /proc/sys/vm/nr_hugepages 2>/dev/null || echo none)

run "$top/configs/vm-scalability-quick.yaml" --name vms --iterations 1
[ $rc = 0 ] || die "quick config failed ($rc): $(cat "$TMP/err")"
cases=$(awk '/test: \[/,/\]/' "$top/configs/vm-scalability-quick.yaml" | tr -d '[],' |
	sed 's/test://' | tr -s ' \n' '\n' | grep -v '^$')
[ "$(echo "$cases" | wc -l)" = 45 ] || die "quick config lists $(echo "$cases" | wc -l) cases, want 45"
for t in $cases; do
	st=$(q "select group_concat(status) from iterations where variant = 'test=$t'")
	case $t in
	*hugetlb)
		if [ "$st" = skipped ]; then
			q "select reason from iterations where variant = 'test=$t'" | grep -q '^no hugetlb pages' ||
				die "$t: skipped without 'no hugetlb pages'"
			continue
		fi ;;
	esac
	[ "$st" = ok ] || die "$t: iteration $st: $(q "select reason from iterations where variant = 'test=$t'")"
	v=$(q "select count(*) from samples s1 join samples s2 on s1.iteration_id = s2.iteration_id
	       where s1.variant = 'test=$t' and s1.metric = 'throughput' and s1.unit = 'KB/s'
	       and s1.better = 1 and s1.value > 0 and s2.metric = 'median' and s2.value > 0
	       and s2.value <= s1.value * (1 + 1e-9)")
	[ "$v" = 1 ] || die "$t: no positive throughput >= median"
	for m in 'stddev%' workload; do
		[ "$(q "select count(*) from samples where variant = 'test=$t' and metric = '$m' and value >= 0")" = 1 ] ||
			die "$t: no $m"
	done
	nf=$(q "select count(*) from samples where variant = 'test=$t' and metric = 'free_time' and value >= 0")
	nt=$(q "select count(*) from samples where variant = 'test=$t' and metric = 'throughput_fault' and value > 0")
	# free_time where a task maps its own memory and usemem times the unmap
	# (at most 32 mappings: small-allocs has hundreds), none for preallocated memory
	case $t in
	anon-r-seq|anon-r-rand|anon-w-seq|anon-w-rand|anon-[rw]-*-mt|lru-file-mmap-read*|lru-shm*|msync|anon-w-*-hugetlb)
		[ "$nf" = 1 ] || die "$t: no free_time" ;;
	*) [ "$nf" = 0 ] || die "$t: free_time on a case usemem gives none" ;;
	esac
	[ "$(q "select count(*) from samples where variant = 'test=$t' and metric = 'median_stddev%' and value >= 0")" = 1 ] ||
		die "$t: no median_stddev%"
	case $t in
	truncate*) [ "$nt" = 1 ] || die "$t: no throughput_fault" ;;
	*) [ "$nt" = 0 ] || die "$t: throughput_fault outside the truncate cases" ;;
	esac
done
# workload, counted as usemem counts it: the KB asked for (32M = 32768 KB)
# and an eighth more; dd (readonce, readtwice) counts exact bytes, twice
# reads twice; mremap-xread adds the move's exact bytes
for t in anon-w-seq anon-w-rand-mt lru-shm; do
	[ "$(q "select cast(value as int) from samples where variant = 'test=$t' and metric = 'workload'")" = 36864 ] ||
		die "$t: workload is not 9/8 of 32768 KB"
done
[ "$(q "select cast(value as int) from samples where variant = 'test=lru-file-readtwice' and metric = 'workload'")" = 65536 ] ||
	die "readtwice: workload is not twice the size"
[ "$(q "select cast(value as int) from samples where variant = 'test=mremap-xread-rand-mt' and metric = 'workload'")" = $((2 * 36864 + 32768)) ] ||
	die "mremap-xread: two whole-region reads plus the move"
# hugetlb pages the harness reserved are released again
[ "$(cat /proc/sys/vm/nr_hugepages 2>/dev/null || echo none)" = "$hp_before" ] ||
	die "nr_hugepages not restored ($hp_before -> $(cat /proc/sys/vm/nr_hugepages))"

# rounds: 32M in 8M units is 4 rounds of 8M (workload is all of it); stddev% over rounds
cat >"$TMP/r.yaml" <<'Y'
experiment: vms-rounds
iterations: 1
warmup: 0
workloads:
  - name: vm-scalability
    params: { test: anon-w-seq-mt, size: 32M, unit_size: 8M, nr_task: 2 }
Y
run "$TMP/r.yaml" --name rounds
[ $rc = 0 ] || die "rounds run failed: $(cat "$TMP/err")"
[ "$(q "select cast(s.value as int) from samples s join runs r on r.id = s.run_id join kernels k on k.id = r.kernel_id where k.label = 'rounds' and metric = 'workload'")" = 36864 ] ||
	die "rounds: workload is not 9/8 of 32M"

# bad params: config errors, exit 2
for bad in 'test: anon-w-foo' 'nr_task: 0' 'size: 1K' 'dir: ""'; do
	printf 'experiment: bad\nworkloads:\n  - name: vm-scalability\n    params: { %s }\n' "$bad" >"$TMP/bad.yaml"
	set +e
	"$MMB" run "$TMP/bad.yaml" >"$TMP/o" 2>"$TMP/e"
	rc=$?
	set -e
	[ $rc = 2 ] || die "'$bad': exit $rc, want 2 ($(cat "$TMP/e"))"
done
echo "ok"
