#!/bin/bash
# Boot-to-boot and within-boot noise of one kernel under each VM set-up
# (make bench VMNOISE=1; docs/kernel-ab.md, "Real time, less noisy").
#
# Boots the kernel NOISE_BOOTS times (10) per set-up, the set-ups
# interleaved (one boot of each per round, so drift hits all alike), each
# boot running tests/kernel/aim9-brk-short.yaml (3 x 1 s brk_test after a
# warm-up), and prints per set-up: the between-boot CoV (of the boot
# means) and the within-boot CoV (median over the boots of the CoV of a
# boot's iterations).  A between-boot CoV well above within / sqrt(3) is a
# per-boot factor: what an A/B at the run level pays for.
#
# Set-ups: q35 (the real clock's machine), microvm, microvm + norandmaps
# (no address-space randomisation in the guest: the same layout every boot),
# microvm or q35 with vCPU threads pinned, and the virtual clock with randomised
# layouts and with norandmaps (its default since this measurement;
# tinyconfig kernels have no KASLR).  TCG real-clock guests are told the
# host's TSC rate (tsc_early_khz=); microvm-calibrated leaves the guest to
# calibrate against the PIT, as before, when a busy host made microvm hang
# in early boot.  A failed boot is counted, not fatal.
# Env: MMBENCH_BUILD (build), NOISE_LABEL (a cached kernel; default the
# first of `mmbench kernel list`), NOISE_BOOTS (10), NOISE_SETUPS (all, by
# name), MMBENCH_KERNEL_CACHE.
set -u
cd "$(dirname "$0")/.." || exit 1
B=$(cd "${MMBENCH_BUILD:-build}" && pwd) || exit 1
MM=$B/mmbench
N=${NOISE_BOOTS:-10}
SETUPS=${NOISE_SETUPS:-q35 q35-pinned microvm microvm-calibrated microvm-norandmaps microvm-pinned virtual virtual-norandmaps}
export MMBENCH_CACHE=${MMBENCH_KERNEL_CACHE:-$B/cache/kernel}
MMB_SQLEXT=$B/sqlite/mmbsamples
sqlite3() { command sqlite3 -cmd ".load $MMB_SQLEXT" "$@"; }

die() { echo "vm-noise: $*" >&2; exit 1; }
[ -x "$MM" ] || die "$MM not built (run make)"
[[ $N =~ ^[0-9]+$ ]] && [ "$N" -ge 3 ] || die "NOISE_BOOTS '$N': 3 or more"
command -v qemu-system-x86_64 >/dev/null || { echo "vm-noise: skipped: no qemu-system-x86_64"; exit 0; }
label=${NOISE_LABEL:-$("$MM" kernel list 2>/dev/null | awk 'NR > 1 && $1 != "" { print $1; exit }')}
[ -n "$label" ] || { echo "vm-noise: skipped: no cached kernel (make check-kernel builds one)"; exit 0; }

T=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$T"' EXIT
export MMBENCH_STATE=$T/state
echo "vm-noise: kernel $label, $N boots per set-up, load $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq 1 "$N"); do
	for s in $SETUPS; do
		args=(--accel tcg --machine microvm) app="" pin=0 randmaps=0 tsc=""
		case $s in
		q35) args=(--accel tcg --machine q35) ;;
		microvm) ;;
		microvm-calibrated) tsc=0 ;;
		microvm-norandmaps) app=norandmaps ;;
		microvm-pinned) pin=1 ;;
		q35-pinned) args=(--accel tcg --machine q35) pin=1 ;;
		virtual) args=(--clock virtual --machine microvm) randmaps=1 ;;
		virtual-norandmaps) args=(--clock virtual --machine microvm) ;;	# the default
		*) die "unknown set-up '$s'" ;;
		esac
		MMBENCH_VM_APPEND=$app MMBENCH_VM_PIN=$pin MMBENCH_VM_RANDMAPS=$randmaps MMBENCH_VM_TSC_KHZ=$tsc \
			MMBENCH_DB=$T/$s.db "$MM" vm run \
			--kernel "$label" "${args[@]}" --cpus 2 --mem 1G tests/kernel/aim9-brk-short.yaml \
			>/dev/null 2>"$T/err" || {
			# a boot that fails is a result too (microvm under TCG hung in early boot)
			echo "  boot $i of $s failed: $(grep -m1 'error:' "$T/err")"
			echo "$s" >> "$T/failed"; }
	done
	echo "  round $i done (load $(cut -d' ' -f1 /proc/loadavg))"
done
printf '%-18s %6s %6s %14s %14s %14s\n' set-up boots failed "mean ops/s" "between-boot" "within-boot"
for s in $SETUPS; do
	sqlite3 -separator ' ' "$T/$s.db" "SELECT run_id, value FROM samples
		WHERE metric = 'brk_test.ops_per_sec' ORDER BY run_id" |
	awk -v s="$s" -v failed="$(grep -cx "$s" "$T/failed" 2>/dev/null || echo 0)" '
	{ n[$1]++; sum[$1] += $2; sq[$1] += $2 * $2; if (!($1 in seen)) { seen[$1] = 1; order[++nr] = $1 } }
	END {
		for (i = 1; i <= nr; i++) {
			r = order[i]; m = sum[r] / n[r]; mean[i] = m; tot += m
			v = n[r] > 1 ? (sq[r] - n[r] * m * m) / (n[r] - 1) : 0
			w[i] = (v > 0 ? sqrt(v) : 0) / m
		}
		gm = tot / nr
		for (i = 1; i <= nr; i++) ss += (mean[i] - gm) ^ 2
		# the median within-boot CoV
		for (i = 1; i <= nr; i++) for (j = i + 1; j <= nr; j++) if (w[j] < w[i]) { x = w[i]; w[i] = w[j]; w[j] = x }
		med = nr % 2 ? w[(nr + 1) / 2] : (w[nr / 2] + w[nr / 2 + 1]) / 2
		printf "%-18s %6d %6d %14.0f %13.2f%% %13.2f%%\n", s, nr, failed, gm, 100 * sqrt(ss / (nr - 1)) / gm, 100 * med
	}'
done
echo "vm-noise: load after $(cut -d' ' -f1-3 /proc/loadavg)"
