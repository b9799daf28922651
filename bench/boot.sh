#!/bin/bash
# Boot to first sample under QEMU, phase by phase: boots a cached kernel
# BOOT_N times (5) on each machine (q35, microvm) and clock (real,
# virtual), interleaved, with a one-iteration experiment, and prints each
# phase's median.  The goal: QEMU, firmware and kernel within 1 s under TCG
# (on the virtual clock, the host's time to the agent's hello, which also
# holds the init script).  The
# phases come from the guest's clock at each step (vm run says them per
# boot): QEMU start + firmware + decompression, kernel init, init script,
# agent set-up, agent to first sample (plugin load, plan and one 0.1 s
# aim9 iteration, the shortest it has).
#
# Env: MMBENCH_BUILD (build), BOOT_LABEL (a kernel of `mmbench kernel list`;
#   default the first; make check-kernel caches one), BOOT_N (5),
#   BOOT_ACCEL (auto; kvm leaves out the virtual clock), MMBENCH_KERNEL_CACHE ($MMBENCH_BUILD/cache/kernel).
set -u
cd "$(dirname "$0")/.." || exit 1
B=$(cd "${MMBENCH_BUILD:-build}" && pwd) || exit 1
MM=$B/mmbench
N=${BOOT_N:-5}
ACCEL=${BOOT_ACCEL:-auto}
export MMBENCH_CACHE=${MMBENCH_KERNEL_CACHE:-$B/cache/kernel}
. bench/lib.sh

die() { echo "boot: $*" >&2; exit 1; }
[ -x "$MM" ] || die "$MM not built (run make)"
[[ $N =~ ^[0-9]+$ ]] && [ "$N" -ge 1 ] || die "BOOT_N '$N' is not a count"
skipped() {
	echo "boot: skipped: $1"
	bench_row "boot to first sample" "<= 2.5 s TCG, <= 1 s KVM" - - - "not measured: $1"
	exit 0
}
command -v qemu-system-x86_64 >/dev/null || skipped "qemu-system-x86_64 not installed"
label=${BOOT_LABEL:-$("$MM" kernel list 2>/dev/null | awk 'NR > 1 && $1 != "" { print $1; exit }')}
[ -n "$label" ] || skipped "no cached kernel (make check-kernel builds one)"

T=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$T"' EXIT
export MMBENCH_DB=$T/boot.db MMBENCH_STATE=$T/state
cat >"$T/one.yaml" <<'YAML'
experiment: boot-to-first-sample
iterations: 1
warmup: 0
timeout: 120s
workloads:
  - name: aim9
    params:
      test: brk_test
      testtime: 100ms
YAML
echo "boot: kernel $label, $N boots each, accel $ACCEL, load $(cut -d' ' -f1-3 /proc/loadavg)"
# interleaved: every machine and clock once per round, so drift hits all alike
for i in $(seq 1 "$N"); do
	for m in q35 microvm; do
		for c in real virtual; do
			[ "$c" = virtual ] && [ "$ACCEL" = kvm ] && continue
			a=$ACCEL; [ "$c" = virtual ] && a=tcg
			"$MM" vm run --kernel "$label" --accel "$a" --clock "$c" --machine "$m" --cpus 2 \
				--mem 1G "$T/one.yaml" >/dev/null 2>"$T/err.$m.$c.$i" ||
				# a hang is a result too (microvm under multi-threaded TCG)
				echo "  $m $c: boot $i failed: $(grep -m1 'error:' "$T/err.$m.$c.$i")"
			grep -h "boot to first sample" "$T/err.$m.$c.$i" | sed "s/^/  $m $c: /"
		done
	done
done
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
# run_env vm.boot.KEY of the runs on machine m, clock c, as a median
phase() {
	sqlite3 "$MMBENCH_DB" "SELECT e.value FROM run_env e JOIN run_env mm ON mm.run_id = e.run_id
		AND mm.key = 'vm.machine' AND mm.value = '$1' JOIN runs r ON r.id = e.run_id
		WHERE e.key = 'vm.boot.$3' AND (r.accel = 'tcg-icount') = ('$2' = 'virtual')" | median
}
printf '%-10s %-8s %-6s %10s %8s %8s %10s %12s\n' machine clock accel "QEMU+fw" kernel init agent-set "first sample"
for m in q35 microvm; do
	for c in real virtual; do
		ls "$T"/err.$m.$c.* >/dev/null 2>&1 || continue
		accel=$(sqlite3 "$MMBENCH_DB" "SELECT r.accel FROM runs r JOIN run_env mm ON mm.run_id = r.id
			AND mm.key = 'vm.machine' AND mm.value = '$m' WHERE (r.accel = 'tcg-icount') = ('$c' = 'virtual')
			ORDER BY r.id DESC LIMIT 1")
		qf=$(phase $m $c qemu_firmware_s); k=$(phase $m $c kernel_s)
		printf '%-10s %-8s %-6s %10s %8s %8s %10s %12s\n' $m $c "$accel" "${qf:--}" "${k:--}" \
			"$(phase $m $c init_s)" "$(phase $m $c agent_setup_s)" "$(phase $m $c first_sample_s)"
		goal=1.0
		if [ "$c" = real ] && [ -n "$qf" ] && [ -n "$k" ]; then
			# QEMU, firmware and kernel: what a boot costs before init runs
			t=$(awk -v a="$qf" -v b="$k" 'BEGIN { printf "%.2f", a + b }')
			bench_row "QEMU, firmware and kernel ($accel, $m, median of $N)" "<= $goal s" "$t s" - - \
				"$(bench_met "$t <= $goal")"
		elif [ "$c" = virtual ]; then
			# guest seconds are not host seconds: the host's time to the agent's
			# hello (QEMU, firmware, kernel, init script: an upper bound)
			t=$(phase $m $c host_to_ready_s)
			[ -n "$t" ] && bench_row "QEMU start to agent ready, host time ($accel, $m, median of $N)" \
				"<= $goal s" "$t s" - - "$(bench_met "$t <= $goal")"
		fi
	done
done
