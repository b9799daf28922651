#!/bin/bash
# make bench: speed, memory and fidelity targets (never part of make check:
# this machine is shared and noisy).  Each script prints its own numbers.
set -u
cd "$(dirname "$0")/.."
export MMBENCH_BUILD=${MMBENCH_BUILD:-build}
# the closing table: every script adds its figures (bench/lib.sh)
MMB_BENCH_TABLE=$(mktemp)
export MMB_BENCH_TABLE
trap 'rm -f "$MMB_BENCH_TABLE"' EXIT
print_table() {
	echo
	echo "== make bench: every figure beside its goal (load $(cut -d' ' -f1-3 /proc/loadavg) at the end)"
	{ printf 'figure\tgoal\tmeasured\tlimit\tratio\tverdict\n'; cat "$MMB_BENCH_TABLE"; } |
		awk -F '\t' '{ for (i = 1; i <= NF; i++) { c[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) }
			       n = NR; if (NF > nf) nf = NF }
			END { for (r = 1; r <= n; r++) { line = ""
				for (i = 1; i <= nf; i++) line = line sprintf("%-*s  ", w[i], c[r, i])
				sub(/ +$/, "", line); print line } }'
}
rc=0
for b in bench/overhead.sh bench/boot.sh bench/interference-overhead.sh bench/interference-sensitivity.sh bench/compare-bench.sh bench/store-bench.sh bench/plan-variants.sh; do
	[ -x "$b" ] || [ -f "$b" ] || continue
	echo "== $b"
	bash "$b" || { echo "$b failed"; rc=1; }
done
# A fleet-sized store (issue 31): make bench BENCH_SAMPLES=100000000 (50
# machines, ~2 min of generation and measurement; not in CI)
if [ -n "${BENCH_SAMPLES:-}" ]; then
	echo "== bench/fleet-bench.sh ($BENCH_SAMPLES samples)"
	BENCH_SAMPLES=$BENCH_SAMPLES bash bench/fleet-bench.sh || { echo "bench/fleet-bench.sh failed"; rc=1; }
else
	. bench/lib.sh
	bench_row "fleet: merge of 50 DBs, list, compare" "see make bench BENCH_SAMPLES=100000000" - - - \
		"not measured: make bench BENCH_SAMPLES=100000000"
fi
# Fidelity of every plugin that has a reference program (pft, ebizzy, aim9):
# plugin and reference interleaved, n = 30 per side, each ratio with its 95%
# CI and both CoVs against the target (docs/workloads.md).
# pft against the original (make bench PFT_ORIG=/path/to/pft), -t1 and -t2,
# 30 pairs; without it the stand-in only smoke-tests the bench
echo "== bench/pft-fidelity.sh -s 256M -c \"1 2\" -m threads -i 30${PFT_ORIG:+ -r $PFT_ORIG}"
bash bench/pft-fidelity.sh -s 256M -c "1 2" -m threads -i 30 ${PFT_ORIG:+-r "$PFT_ORIG"} ||
	{ echo "bench/pft-fidelity.sh failed"; rc=1; }
# vm-scalability against the original usemem (make bench VMS_USEMEM=/path/to/usemem)
echo "== bench/vms-fidelity.sh"
bash bench/vms-fidelity.sh || { echo "bench/vms-fidelity.sh failed"; rc=1; }
echo "== bench/fidelity-workloads.sh -i 30 -d 2 -t 2 -c ebizzy-compat,ebizzy-lcg,brk_test,page_test"
bash bench/fidelity-workloads.sh -i 30 -d 2 -t 2 -c ebizzy-compat,ebizzy-lcg,brk_test,page_test ||
	{ echo "bench/fidelity-workloads.sh failed"; rc=1; }
# vm-scalability and stress-ng (issue 29): quick-size CoV and stress-ng
# harness vs by hand (~30 min); the default sizes too with VMSDEF=1 (hours)
echo "== bench/vms-stress-ng.sh${VMSDEF:+ -d}"
bash bench/vms-stress-ng.sh ${VMSDEF:+-d} || { echo "bench/vms-stress-ng.sh failed"; rc=1; }
# ~13 minutes of machine time: only when asked (make bench SENS=1)
if [ -n "${SENS:-}" ]; then
	echo "== bench/sensitivity.sh"
	bash bench/sensitivity.sh || { echo "bench/sensitivity.sh failed"; rc=1; }
fi
# false verdicts of A/As under TCG, pooled vs run-level (30 A/Bs, ~25 min): make bench KAA=1
if [ -n "${KAA:-}" ]; then
	echo "== bench/kernel-aa.sh"
	bash bench/kernel-aa.sh || { echo "bench/kernel-aa.sh failed"; rc=1; }
fi
# kernel versions: Debian's 6.1 vs 6.12 over fork of PTE-mapped folios
# (two clean kernel builds and ~10 boots, ~1 h the first time): make bench KVER=1
if [ -n "${KVER:-}" ]; then
	echo "== bench/kernel-versions.sh"
	bash bench/kernel-versions.sh || { echo "bench/kernel-versions.sh failed"; rc=1; }
fi
# kernel A/B power under TCG in both clocks (dozens of boots, ~25 min):
# make bench KSENS=1; the virtual clock's A/As (30, noop fixture): KVAA=1
if [ -n "${KSENS:-}" ]; then
	for clock in virtual real; do
		echo "== bench/kernel-ab-power.sh ($clock clock)"
		KSENS_CLOCK=$clock KSENS_LOOPS=${KSENS_LOOPS:-0 5 10 20 40 80} bash bench/kernel-ab-power.sh ||
			{ echo "bench/kernel-ab-power.sh failed"; rc=1; }
	done
fi
if [ -n "${KVAA:-}" ]; then
	echo "== bench/kernel-ab-power.sh (virtual clock A/As)"
	KSENS_CLOCK=virtual KSENS_FIX=tests/fixtures/kernel/noop KSENS_LOOPS=0 KSENS_REPS=30 \
		bash bench/kernel-ab-power.sh || { echo "bench/kernel-ab-power.sh failed"; rc=1; }
fi
# what the virtual clock cannot see: the mem-stride fixture in both clocks: make bench KMEM=1
if [ -n "${KMEM:-}" ]; then
	echo "== bench/kernel-memstride.sh"
	bash bench/kernel-memstride.sh || { echo "bench/kernel-memstride.sh failed"; rc=1; }
fi
# boot-to-boot and within-boot noise per VM set-up (60 boots, ~6 min): make bench VMNOISE=1
if [ -n "${VMNOISE:-}" ]; then
	echo "== bench/vm-noise.sh"
	bash bench/vm-noise.sh || { echo "bench/vm-noise.sh failed"; rc=1; }
fi
print_table
exit $rc
