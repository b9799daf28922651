#!/bin/bash
# e2e: `mmbench reproduce --dry-run` maps vm-scalability and stress-ng
# reports (written by us in 0-day's format: tests/fixtures/reports/vms-*,
# sng-*; two of them follow-ups whose parameters come from the axes line).
# With --tree the runs happen in a 2-CPU, 2G guest, so the plans are the
# same on every machine: each is compared with its golden
# (tests/fixtures/golden/reproduce-*).  On the host: lkp's sizes scaled to
# this machine's memory, with the scaling said.  Unsupported tests of both
# testcases are one clear error, exit 2.
. "$(dirname "$0")/../e2e-lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
FIX=$top/tests/fixtures/reports
GOLD=$top/tests/fixtures/golden
MMB=$(cd "$(dirname "$MMB")" && pwd)/$(basename "$MMB")
[ -x "$MMB" ] || die "$MMB not built"

n=0
if [ "$(nproc)" -ge 2 ]; then
	for f in "$FIX"/vms-*.txt "$FIX"/sng-*.txt; do
		b=$(basename "$f" .txt)
		(cd "$FIX" && "$MMB" reproduce --dry-run --tree /nonexistent-tree "$b.txt") >"$TMP/$b" 2>"$TMP/err" ||
			die "$b: dry-run failed: $(cat "$TMP/err")"
		[ -s "$TMP/err" ] && die "$b: unexpected stderr: $(cat "$TMP/err")"
		diff -u "$GOLD/reproduce-$b" "$TMP/$b" || die "$b: plan differs from its golden"
		n=$((n + 1))
	done
	[ $n -ge 8 ] || die "only $n golden plans"
fi
# the plans run what the reports name, the KPI matched by name
grep -q '^      test: anon-w-seq-mt$' "$GOLD/reproduce-vms-anon-w-seq-mt" || die "vms test"
grep -q 'workload vm-scalability, metric median -> vm-scalability.median' "$GOLD/reproduce-vms-lru-file-readtwice" ||
	die "the median headline is the KPI"
grep -q 'workload stress-ng, metric pagemove.page_remaps_per_sec -> stress-ng.pagemove.page_remaps_per_sec' \
	"$GOLD/reproduce-sng-pagemove" || die "a miscellaneous stress-ng headline is the KPI"
grep -q '^      method: flip$' "$GOLD/reproduce-sng-vm-method" || die "method passed"
grep -q '^      nr_threads: 50%    # 50% of 2 CPUs here = 1$' "$GOLD/reproduce-sng-brk" || die "nr_threads scaled"
# lkp's run script multiplies size by nr_node (2 sockets here), then scales
grep -q '^      size: 8G    # size 512G x 2 nodes -> 8G: the report.s machine has 256G, the QEMU guest has 2.0G$' \
	"$GOLD/reproduce-vms-anon-cow-rand-hugetlb-followup" || die "follow-up: size from the axes, x nr_node, scaled"
grep -q "^  - THP: the report's kernel does not say (lkp's kernels usually run always); the QEMU guest: madvise$" \
	"$GOLD/reproduce-vms-anon-w-seq-mt" || die "the plan does not say THP"

# on the host: the same share of this machine's memory, said
"$MMB" reproduce --dry-run "$FIX/vms-anon-w-seq-mt.txt" >"$TMP/host" 2>"$TMP/err" ||
	die "host dry-run failed: $(cat "$TMP/err")"
grep -q '^      size: [0-9]*[MG]    # size 8T x 4 nodes -> [0-9]*[MG]: the report.s machine has 256G, this machine has ' "$TMP/host" ||
	die "host scaling not said: $(grep size: "$TMP/host")"
if [ -r /sys/kernel/mm/transparent_hugepage/enabled ]; then
	thp=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled)
	grep -q "^  - THP: .*; this machine: $thp\$" "$TMP/host" || die "host THP not said: $(grep THP "$TMP/host")"
fi
mem_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
unit_m=$(sed -n 's/^      unit_size: \([0-9]*\)M .*/\1/p' "$TMP/host")
[ -n "$unit_m" ] || unit_m=$(( $(sed -n 's/^      unit_size: \([0-9]*\)G .*/\1/p' "$TMP/host") * 1024 ))
# half of the memory (lkp's unit_size mem/2), in whole MiB
[ "$unit_m" = $((mem_kb / 1024 / 2)) ] || [ "$unit_m" = $((mem_kb / 1024 / 2 - 1)) ] ||
	die "unit_size ${unit_m}M is not half of ${mem_kb} kB"

# unsupported tests of both testcases
for pair in 'stress-ng:cpu' 'vm-scalability:migrate'; do
	tc=${pair%%:*} t=${pair#*:}
	sed "s/^\ttest: .*/\ttest: $t/" "$FIX/$( [ "$tc" = stress-ng ] && echo sng-brk || echo vms-anon-w-seq-mt).txt" >"$TMP/u.txt"
	set +e
	"$MMB" reproduce --dry-run "$TMP/u.txt" >"$TMP/o" 2>"$TMP/e"
	rc=$?
	set -e
	[ $rc = 2 ] || die "$tc/$t: exit $rc, want 2"
	grep -q "not supported: $tc/$t; mmbench can reproduce: .*vm-scalability/.*stress-ng/" "$TMP/e" ||
		die "$tc/$t: $(cat "$TMP/e")"
done
echo "ok: $n golden plans"
