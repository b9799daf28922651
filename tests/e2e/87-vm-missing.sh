#!/bin/bash
# vm run when pieces are missing: the QEMU binary, the kernel image of a
# cached label, the label itself.  Each is ONE error naming the missing
# piece; the first two are recorded as a failed run (console log path
# printed), an unknown label is a usage error (exit 2) that records nothing.
# --accel auto with a QEMU that dies under KVM falls back to TCG.  A guest
# whose console stops before the agent speaks is a hang after --hang-timeout.
# A guest that boots but never writes results (bogus kernel) and a guest
# panic are covered by 60-kernel-cli.sh and tests/kernel/run.sh.
# Skipped (77) without busybox.
. "$(dirname "$0")/../e2e-lib.sh"
# vm run builds its initramfs from busybox before QEMU is started (the same
# places harness/kernel/initramfs.c looks); `install-deps.sh test` installs it
[ -x /bin/busybox ] || [ -x /usr/bin/busybox ] || command -v busybox >/dev/null ||
	skip "busybox not installed (apt-get install busybox-static): vm run cannot build an initramfs"
export MMBENCH_CACHE=$TMP/cache
mkdir -p "$MMBENCH_CACHE/kernels/k0" "$MMBENCH_CACHE/labels"
printf 'key=k0\nrelease=0.0-missing\nbase_commit=0000000\npatches=[]\n' > "$MMBENCH_CACHE/kernels/k0/meta"
echo "not a kernel" > "$MMBENCH_CACHE/kernels/k0/bzImage"
ln -s ../kernels/k0 "$MMBENCH_CACHE/labels/k"
printf 'experiment: tiny\niterations: 1\nwarmup: 0\nworkloads:\n  - name: skeleton\n' > "$TMP/e.yaml"
expect() {	# code, message, command...
	local code=$1 msg=$2
	shift 2
	set +e
	"$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	set -e
	cat "$TMP/err"
	[ "$rc" = "$code" ] || die "expected exit $code, got $rc"
	[ "$(grep -c '^error:' "$TMP/err")" = 1 ] || die "expected one error line"
	grep -qF "$msg" "$TMP/err" || die "the error does not say: $msg"
}
expect 1 "cannot run $TMP/no-such-qemu" "$MMB" vm run --kernel k --accel tcg --qemu "$TMP/no-such-qemu" "$TMP/e.yaml"
grep -q "0 samples received are kept" "$TMP/err" || die "no word on the samples kept"
[ "$(q "SELECT status FROM runs ORDER BY id DESC LIMIT 1")" = failed ] || die "the run is not recorded as failed"
if command -v qemu-system-x86_64 > /dev/null; then
	rm "$MMBENCH_CACHE/kernels/k0/bzImage"
	expect 1 "$MMBENCH_CACHE/kernels/k0/bzImage" "$MMB" vm run --kernel k --accel tcg "$TMP/e.yaml"
	[ "$(q "SELECT count(*) FROM runs WHERE status = 'failed'")" = 2 ] || die "the second run is not recorded as failed"
else
	echo "qemu not installed: the missing-image case is not exercised"
fi
# --accel auto where /dev/kvm opens but QEMU dies under KVM (as on a VM
# without nested virtualisation: "failed to set MSR", abort): the probe
# falls back to TCG by itself and remembers it for this host boot.
cat > "$TMP/fake-qemu" <<'EOQ'
#!/bin/sh
case "$*" in
*"-accel kvm"*) echo "qemu: error: failed to set MSR 0x10a (fake)" >&2; kill -ABRT $$ ;;
esac
echo "fake qemu under TCG: no guest here" >&2
exit 1
EOQ
chmod +x "$TMP/fake-qemu"
echo "fake" > "$MMBENCH_CACHE/kernels/k0/bzImage"
if "$MMB" vm run --kernel k --accel auto --qemu "$TMP/fake-qemu" "$TMP/e.yaml" > "$TMP/out" 2> "$TMP/err"; then
	die "a fake QEMU cannot succeed"
fi
cat "$TMP/err"
if grep -q "using TCG (no KVM" "$TMP/err"; then
	echo "KVM is not usable here: the probe fallback is not exercised"
else
	grep -q "QEMU died under KVM before the guest printed (qemu: error: failed to set MSR" "$TMP/err" ||
		die "no fallback warning naming QEMU's last words"
	grep -q "fake qemu under TCG" "$TMP/err" || die "TCG was not tried after the KVM probe died"
	[ "$(q "SELECT accel FROM runs ORDER BY id DESC LIMIT 1")" = tcg ] || die "the run does not record tcg"
	grep -q " hang$" "$MMBENCH_CACHE/kvm-probe" || die "the failed probe is not remembered"
	"$MMB" vm run --kernel k --accel auto --qemu "$TMP/fake-qemu" "$TMP/e.yaml" > "$TMP/out" 2> "$TMP/err" || true
	grep -q "using TCG (no KVM: a KVM guest did not come up earlier" "$TMP/err" ||
		die "the second run probed KVM again"
fi

# a guest that prints its first console lines and then hangs before the
# agent speaks (seen: microvm under multi-threaded TCG): ended after
# --hang-timeout, not the boot timeout (900 s under TCG)
cat > "$TMP/hang-qemu" <<'EOQ'
#!/bin/sh
for a in "$@"; do case $a in file:*) console=${a#file:} ;; esac; done
echo "Linux version fake" > "$console"
exec sleep 600
EOQ
chmod +x "$TMP/hang-qemu"
expect 1 "the guest hung while booting (its console stopped growing for 2s" \
	"$MMB" vm run --kernel k --accel tcg --hang-timeout 2 --qemu "$TMP/hang-qemu" "$TMP/e.yaml"
[ "$(q "SELECT status FROM runs ORDER BY id DESC LIMIT 1")" = failed ] || die "the hung boot is not a failed run"

n=$(q "SELECT count(*) FROM runs")
expect 2 "no kernel labelled 'nosuch'" "$MMB" vm run --kernel nosuch "$TMP/e.yaml"
[ "$(q "SELECT count(*) FROM runs")" = "$n" ] || die "an unknown label recorded a run"
[ "$(sqlite3 "$MMBENCH_DB" "PRAGMA integrity_check")" = ok ] || die "integrity_check"
echo ok
