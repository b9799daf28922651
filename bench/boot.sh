#!/bin/bash
# Boot to first sample under QEMU, phase by phase (issue 31, item 5): boots
# a cached kernel BOOT_N times (5) with a one-iteration experiment and
# prints each phase's median beside the goal (TCG 2.5 s, KVM 1 s).  The
# phases come from the guest's clock at each step (vm run says them per
# boot): QEMU start + firmware + decompression, kernel init, init script,
# agent set-up, agent to first sample (plugin load, plan and one 0.1 s
# aim9 iteration, the shortest it has).
#
# Env: MMBENCH_BUILD (build), BOOT_LABEL (a kernel of `mmbench kernel list`;
#   default the first; make check-kernel caches one), BOOT_N (5),
#   BOOT_ACCEL (auto), MMBENCH_KERNEL_CACHE ($MMBENCH_BUILD/cache/kernel).
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
echo "boot: kernel $label, $N boots, accel $ACCEL, load $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq 1 "$N"); do
	"$MM" vm run --kernel "$label" --accel "$ACCEL" --cpus 2 --mem 1G "$T/one.yaml" \
		>/dev/null 2>"$T/err.$i" || { cat "$T/err.$i"; die "boot $i failed"; }
	grep -h "boot to first sample .*: QEMU" "$T/err.$i" | sed 's/^/  /'
done
accel=$(sqlite3 "$MMBENCH_DB" "SELECT accel FROM runs ORDER BY id DESC LIMIT 1" 2>/dev/null)
goal=2.5; [ "$accel" = kvm ] && goal=1.0
# medians per phase over the boots (run_env vm.boot.*, the total from the line)
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
printf '%-42s %8s\n' "phase ($accel, median of $N)" seconds
for k in qemu_firmware kernel init agent_setup first_sample; do
	v=$(sqlite3 "$MMBENCH_DB" "SELECT value FROM run_env WHERE key = 'vm.boot.${k}_s'" | median)
	printf '%-42s %8s\n' "$k" "${v:--}"
done
total=$(sed -n 's/.*boot to first sample \([0-9.]*\)s: QEMU.*/\1/p' "$T"/err.* | median)
printf '%-42s %8s  (goal <= %s s)\n' "boot to first sample" "${total:--}" "$goal"
[ -n "$total" ] && bench_row "boot to first sample ($accel, median of $N)" "<= $goal s" "$total s" - - \
	"$(bench_met "$total <= $goal")"
