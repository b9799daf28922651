#!/bin/bash
# bisect --arch arm64 end to end without a kernel (docs/kernel-ab.md,
# "arm64 guests"):
#  - argument paths: --accel kvm on a host of another arch and x86_64's
#    --machine are refused before anything is built (exit 2)
#  - the synthetic measurement (MMBENCH_BISECT_FAKE) names the culprit;
#    the measurement key says "arch arm64", so the same bisect for x86_64
#    (no --arch on an x86_64 host) is refused rather than pooled with the
#    arm64 runs, and resuming with --arch arm64 measures nothing again
#  - without the synthetic measurement, and without the arm64 guest's
#    programs (make guest-arm64), bisect and ab refuse before building a
#    kernel (exit 2); with them a run is an arm64 kernel build of the
#    commit, labelled bisect-SHA12-arm64 (this tree is no kernel, so it
#    fails with its log, exit 1)
. "$(dirname "$0")/../e2e-lib.sh"
command -v git >/dev/null || skip "git not installed"
top=$(cd "$(dirname "$0")/../.." && pwd)
export MMBENCH_CACHE="$TMP/cache"
expect() {	# expect RC PATTERN -- command...
	local want=$1 pat=$2 rc=0
	shift 3
	"$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
	[ "$rc" = "$want" ] || { cat "$TMP/out" "$TMP/err"; die "$*: exit $rc, expected $want"; }
	grep -q -- "$pat" "$TMP/out" "$TMP/err" || { cat "$TMP/out" "$TMP/err"; die "$*: no '$pat'"; }
}
t="$TMP/tree"
mkdir -p "$t"
git -C "$t" init -q -b main
gc() { git -C "$t" -c user.name=Tess -c user.email=tess@example.org "$@"; }
echo 100 >"$t/value"
gc add -A
gc commit -q -m base
gc tag good
for i in 1 2 3 4 5 6 7 8; do
	echo "# $i" >>"$t/notes"
	[ $i = 5 ] && echo 90 >"$t/value"
	gc add -A
	gc commit -q -m "commit $i"
	[ $i = 5 ] && culprit=$(git -C "$t" rev-parse HEAD)
done
gc tag bad
B=(bisect --tree "$t" --good good --bad bad --metric fake.value "$top/configs/quick.yaml")

if [ "$(uname -m)" != aarch64 ]; then
	expect 2 "--arch arm64 on a $(uname -m) host runs under TCG" -- "$MMB" "${B[@]}" --arch arm64 --accel kvm
fi
expect 2 "--machine microvm: an x86_64 machine; arm64 guests boot on 'virt'" -- \
	"$MMB" "${B[@]}" --arch arm64 --machine microvm

export MMBENCH_BISECT_FAKE=value MMBENCH_BISECT_FAKE_SD=1 MMBENCH_BISECT_SEED=7
expect 0 "first bad commit: $culprit" -- "$MMB" "${B[@]}" --arch arm64
grep -qx "arch arm64" "$MMBENCH_CACHE"/bisect/*/measures ||
	{ cat "$MMBENCH_CACHE"/bisect/*/measures; die "the measurement key does not say arm64"; }
runs=$(cat "$MMBENCH_CACHE"/bisect/*/runs.tsv | wc -l)
if [ "$(uname -m)" = x86_64 ]; then
	expect 1 "which is not what this command measures" -- "$MMB" "${B[@]}"
	grep -q "arch arm64" "$TMP/err" || { cat "$TMP/err"; die "the refusal does not name the arch"; }
fi
expect 0 "first bad commit: $culprit" -- "$MMB" "${B[@]}" --arch arm64
[ "$(cat "$MMBENCH_CACHE"/bisect/*/runs.tsv | wc -l)" = "$runs" ] || die "the resumed bisect measured again"

unset MMBENCH_BISECT_FAKE
rm -rf "$MMBENCH_CACHE"
# an mmbench without the arm64 guest's programs beside it (no make
# guest-arm64): bisect and ab say so before building any kernel
mkdir -p "$TMP/g"
cp "$MMB" "$TMP/g/mmbench"
expect 2 "make guest-arm64" -- "$TMP/g/mmbench" "${B[@]}" --arch arm64
expect 2 "make guest-arm64" -- "$TMP/g/mmbench" ab --tree "$t" --base good --new bad --arch arm64 \
	--no-plots "$top/configs/quick.yaml"
[ ! -e "$MMBENCH_CACHE/logs" ] && [ ! -e "$MMBENCH_CACHE/bisect" ] || die "a kernel build was started"
# with them (stand-ins: only their presence is asked before a build)
mkdir -p "$TMP/g/aarch64"
printf '#!/bin/sh\nexit 1\n' >"$TMP/g/aarch64/mmbench"
cp "$TMP/g/aarch64/mmbench" "$TMP/g/aarch64/busybox"
chmod +x "$TMP/g/aarch64/mmbench" "$TMP/g/aarch64/busybox"
expect 1 "log: " -- env MMBENCH_DATA_DIR="$top" "$TMP/g/mmbench" "${B[@]}" --arch arm64
grep -Eq "bisect-[0-9a-f]{12}-arm64" "$TMP/err" || { cat "$TMP/err"; die "the kernel label is not bisect-SHA12-arm64"; }
echo ok
