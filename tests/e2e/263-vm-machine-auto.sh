#!/bin/bash
# --machine auto under TCG on the real clock is microvm when the kernel has
# virtio over MMIO and the guest is told the host's TSC rate (tsc_early_khz=:
# without it a microvm guest on a busy host failed its PIT calibration and
# hung in calibrate_delay()); q35 on the virtual clock, for a kernel without
# virtio-mmio, or with MMBENCH_VM_TSC_KHZ=0.  A fake QEMU records its argv.
# Skipped (77) without busybox (vm run builds an initramfs first).
. "$(dirname "$0")/../e2e-lib.sh"
[ -x /bin/busybox ] || [ -x /usr/bin/busybox ] || command -v busybox >/dev/null ||
	skip "busybox not installed (apt-get install busybox-static): vm run cannot build an initramfs"
export MMBENCH_CACHE=$TMP/cache
mkdir -p "$MMBENCH_CACHE/labels"
for k in mmio plain; do
	mkdir -p "$MMBENCH_CACHE/kernels/$k"
	printf 'key=%s\nrelease=0.0-%s\nbase_commit=0000000\npatches=[]\n' $k $k > "$MMBENCH_CACHE/kernels/$k/meta"
	echo "not a kernel" > "$MMBENCH_CACHE/kernels/$k/bzImage"
	ln -s ../kernels/$k "$MMBENCH_CACHE/labels/$k"
done
printf 'CONFIG_VIRTIO=y\nCONFIG_VIRTIO_MMIO=y\n' > "$MMBENCH_CACHE/kernels/mmio/config"
printf 'CONFIG_VIRTIO=y\n' > "$MMBENCH_CACHE/kernels/plain/config"
printf 'experiment: tiny\niterations: 1\nwarmup: 0\nworkloads:\n  - name: skeleton\n' > "$TMP/e.yaml"
cat > "$TMP/fake-qemu" <<'EOQ'
#!/bin/sh
printf '%s\n' "$@" > "$ARGV_OUT"
echo "fake qemu: no guest here" >&2
exit 1
EOQ
chmod +x "$TMP/fake-qemu"
export ARGV_OUT=$TMP/argv
boot() {	# label, expected machine, tsc (yes|no), vm run options...
	local label=$1 machine=$2 tsc=$3
	shift 3
	rm -f "$ARGV_OUT"
	"$MMB" vm run --kernel "$label" --qemu "$TMP/fake-qemu" "$@" "$TMP/e.yaml" \
		> "$TMP/out" 2> "$TMP/err" && die "the fake QEMU's boot succeeded"
	[ -s "$ARGV_OUT" ] || die "$label $*: QEMU not started: $(cat "$TMP/err")"
	got=$(sed -n '/^-machine$/{n;p}' "$ARGV_OUT")
	[ "$got" = "$machine" ] || die "$label $*: -machine $got, expected $machine"
	append=$(sed -n '/^-append$/{n;p}' "$ARGV_OUT")
	case $tsc:$append in
	yes:*" tsc_early_khz="*) ;;
	no:*tsc_early_khz*) die "$label $*: the TSC rate stated: $append" ;;
	no:*) ;;
	*) die "$label $*: no TSC rate stated: $append" ;;
	esac
}
if [ "$(uname -m)" = x86_64 ]; then
	boot mmio microvm yes --accel tcg
	khz=$(sed -n '/^-append$/{n;p}' "$ARGV_OUT" | sed 's/.* tsc_early_khz=\([0-9]*\).*/\1/')
	[ $((khz % 1000)) = 0 ] || die "the measured TSC rate $khz kHz is not whole MHz"
	boot plain q35 yes --accel tcg
	boot mmio q35 yes --accel tcg --machine q35
fi
MMBENCH_VM_TSC_KHZ=2100000 boot mmio microvm yes --accel tcg
grep -q -- "tsc_early_khz=2100000" "$ARGV_OUT" || die "MMBENCH_VM_TSC_KHZ not stated"
MMBENCH_VM_TSC_KHZ=0 boot mmio q35 no --accel tcg
MMBENCH_VM_TSC_KHZ=0 boot mmio microvm no --accel tcg --machine microvm
boot mmio q35 no --accel tcg --clock virtual

set +e
MMBENCH_VM_TSC_KHZ=fast "$MMB" vm run --kernel mmio --accel tcg --qemu "$TMP/fake-qemu" "$TMP/e.yaml" \
	> "$TMP/out" 2> "$TMP/err"
rc=$?
set -e
[ $rc = 2 ] || die "MMBENCH_VM_TSC_KHZ=fast: exit $rc, expected 2"
grep -q "MMBENCH_VM_TSC_KHZ: 'fast' is not a rate in kHz" "$TMP/err" || die "$(cat "$TMP/err")"
echo ok
