#!/bin/bash
# --arch x86_64|arm64 (docs/kernel-ab.md, "arm64 guests"), without building
# or booting a kernel:
#  - a bad --arch: exit 2 naming it and the choices, for kernel build, vm
#    run, ab, bisect and reproduce --tree
#  - an arm64 kernel in the cache (a fake one: only its meta says arm64):
#    vm run --arch x86_64 of it, --machine q35 or microvm (x86_64's), and
#    --accel kvm on a host of another arch (vm run, and ab of two built
#    arm64 kernels without --arch) are refused before booting
#  - compare refuses runs of two archs (run_env vm.arch) unless
#    --mix-arches, and the text and JSON layouts say the guest's arch
. "$(dirname "$0")/../e2e-lib.sh"
MM=$MMB
top=$(cd "$(dirname "$0")/../.." && pwd)
export MMBENCH_CACHE="$TMP/cache"
Q="$top/configs/quick.yaml"
expect() {	# expect RC PATTERN -- command...
	local want=$1 pat=$2 rc=0
	shift 3
	"$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
	[ "$rc" = "$want" ] || { cat "$TMP/err"; die "$*: exit $rc, expected $want"; }
	grep -q -- "$pat" "$TMP/err" || { cat "$TMP/err"; die "$*: no '$pat' in the message"; }
}

bad="--arch 'sparc': expected x86_64 or arm64"
expect 2 "$bad" -- "$MM" kernel build --tree "$TMP" --name x --arch sparc
expect 2 "$bad" -- "$MM" vm run --kernel x --arch sparc "$Q"
expect 2 "$bad" -- "$MM" ab --tree "$TMP" --patch p --arch sparc "$Q"
expect 2 "$bad" -- "$MM" bisect --tree "$TMP" --good a --bad b --metric f.v --arch sparc "$Q"
expect 2 "$bad" -- "$MM" reproduce --tree "$TMP" --arch sparc "$Q"
expect 2 "--arch 'aarch64': expected x86_64 or arm64" -- "$MM" vm run --kernel x --arch aarch64 "$Q"
expect 2 "--machine q35: an x86_64 machine; arm64 guests boot on 'virt'" -- \
	"$MM" ab --tree "$TMP" --patch p --arch arm64 --machine q35 "$Q"

# a fake arm64 kernel: the cache layout kernel build makes (kbuild.h)
key=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
mkdir -p "$MMBENCH_CACHE/kernels/$key" "$MMBENCH_CACHE/labels"
printf 'key=%s\nlabel=fake-arm64\nrelease=6.12.0\narch=arm64\n' "$key" >"$MMBENCH_CACHE/kernels/$key/meta"
printf 'not an Image' >"$MMBENCH_CACHE/kernels/$key/Image"
ln -s "../kernels/$key" "$MMBENCH_CACHE/labels/fake-arm64"
expect 2 "vm run --arch x86_64: kernel 'fake-arm64' is built for arm64" -- \
	"$MM" vm run --kernel fake-arm64 --arch x86_64 "$Q"
expect 2 "--machine microvm: an x86_64 machine; arm64 guests boot on 'virt'" -- \
	"$MM" vm run --kernel fake-arm64 --machine microvm "$Q"
if [ "$(uname -m)" != aarch64 ]; then
	expect 2 "--arch arm64 on a $(uname -m) host runs under TCG" -- \
		"$MM" vm run --kernel fake-arm64 --accel kvm "$Q"
fi
# ab of two built arm64 kernels without --arch: their arch, so no KVM either
key2=${key%0}1
mkdir -p "$MMBENCH_CACHE/kernels/$key2"
sed "s/$key/$key2/; s/fake-arm64/fake-arm64b/" "$MMBENCH_CACHE/kernels/$key/meta" >"$MMBENCH_CACHE/kernels/$key2/meta"
cp "$MMBENCH_CACHE/kernels/$key/Image" "$MMBENCH_CACHE/kernels/$key2/"
ln -s "../kernels/$key2" "$MMBENCH_CACHE/labels/fake-arm64b"
if [ "$(uname -m)" != aarch64 ]; then
	expect 2 "--arch arm64 on a $(uname -m) host runs under TCG" -- \
		"$MM" ab --base-name fake-arm64 --new-name fake-arm64b --accel kvm --rounds 1 --no-plots "$Q"
fi
# no run was made of any of them
[ "$(q "SELECT count(*) FROM runs" 2>/dev/null || echo 0)" = 0 ] || die "a refused vm run left a run"

# compare: two archs' runs are not compared unless asked
csv() {	# FILE BASE: 5 values around BASE
	{
		echo "workload,metric,variant,iteration,value"
		for i in 1 2 3 4 5; do printf 'pageout,pageout.pages_per_sec,,%d,%d\n' "$i" $(( $2 + i )); done
	} > "$1"
}
csv "$TMP/a.csv" 1000
csv "$TMP/b.csv" 2000
for l in xbase abase anew; do
	"$MM" import --name "$l" "$TMP/$([ "$l" = anew ] && echo b || echo a).csv" >/dev/null 2>&1 ||
		die "import $l failed"
done
q "UPDATE runs SET accel = 'tcg'"
# xbase: a VM run recorded before vm.arch (x86_64); abase, anew: arm64
q "INSERT INTO run_env (run_id, key, value) SELECT r.id, 'vm.arch', 'arm64' FROM runs r
   JOIN kernels k ON k.id = r.kernel_id WHERE k.label IN ('abase', 'anew')"
expect 2 "different archs: x86_64 for xbase, arm64 for anew" -- "$MM" compare xbase anew
[ ! -s "$TMP/out" ] || die "a refused comparison printed a table"
"$MM" compare --mix-arches xbase anew >"$TMP/out" || die "compare --mix-arches failed"
grep -q "^arch: MIXED" "$TMP/out" || die "no mixed arch line: $(cat "$TMP/out")"
"$MM" compare abase anew >"$TMP/out" || die "compare of two arm64 labels failed"
grep -q "^arch: arm64 (the guest's)" "$TMP/out" || die "no arch line: $(cat "$TMP/out")"
"$MM" compare --format json abase anew | grep -q '"arch":"arm64"' || die "json does not state the arch"
echo "ok"
