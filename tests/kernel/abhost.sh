#!/bin/bash
# make check-abhost: ab --host end to end, a QEMU guest standing in for the
# machine (docs/kernel-ab.md, "Bare metal").
#
#  1. two kernels by our kernel build, tinyconfig + mmbench.config +
#     tests/kernel/abhost-guest.config (kexec_load, virtio-blk, ext4): the
#     base (v6.12-debian) and the slow-brk-tunable fixture, as check-kernel
#  2. an initramfs made as vm run's are (busybox, mmbench, plugins, their
#     libraries) with Debian's kexec and its libraries, its init
#     tests/kernel/abhost-init.sh: no systemd, so the resume hook is the
#     state folder's ab-host.hook file, which that init checks at each boot
#  3. a virtio disk, an ext4 image made by mkfs.ext4 -d (no mount): both
#     bzImages, the initramfs, the experiment, the campaign's arguments;
#     the DB and the state folder are made on it by the guest
#  4. the guest boots the base kernel (QEMU's -kernel: the machine's default
#     kernel) and runs `mmbench ab --host --rounds 2` with real kexec -l /
#     kexec -e, on the virtual clock (TCG + icount: host load cannot move
#     the numbers); the host reads the DB and logs back with debugfs and
#     checks the kernel sequence (A, kexec B, kexec A: plan ABBA) and the
#     verdict: brk_test a significant regression on the fixture
#  5. a kernel that panics (B's cmdline names an init that does not exist,
#     panic=1): QEMU resets into the default kernel, whose hook counts the
#     failure and tries again; after --max-failures the campaign ends
#     "failed", naming the boots, and the machine is on its default kernel
# Exit 0 pass, 77 skip, else fail.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
B=$(cd "${MMBENCH_BUILD:-$top/build}" && pwd)
MM="$B/mmbench"
REPO="$B/cache/linux-6.12.git"
export MMBENCH_CACHE="${MMBENCH_KERNEL_CACHE:-$B/cache/kernel}"
# brk()'s busy loop in the fixture: large enough that two boots a side
# decide it on the virtual clock
LOOPS=${MMBENCH_ABHOST_LOOPS:-200}
# MMBENCH_ABHOST_KEEP=DIR: the stand-in's DB and logs are copied there (to
# compare with an `ab` of the same kernels, docs/kernel-ab.md)
KEEP=${MMBENCH_ABHOST_KEEP:-}
# a hang guard for each guest (not a measurement): a TCG boot with two
# kexecs and four short runs takes minutes; 20 minutes means it hung
GUARD=${MMBENCH_ABHOST_GUARD:-1200}

work=$(mktemp -d /tmp/mmbench-abhost.XXXXXX)
trap 'rm -rf "$work"' EXIT
export MMBENCH_DB="$work/kernels.db"

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
t_start=$(date +%s)
step() { echo "== [$(( $(date +%s) - t_start ))s] $*"; }

[ -x "$MM" ] || fail "$MM not built"
[ -x "$B/tests/abhost-initramfs" ] || fail "$B/tests/abhost-initramfs not built"
for t in qemu-system-x86_64 git make gcc busybox kexec mkfs.ext4 debugfs sqlite3 timeout; do
	command -v $t >/dev/null 2>&1 || PATH=$PATH:/sbin:/usr/sbin command -v $t >/dev/null 2>&1 ||
		skip "$t not installed"
done
export PATH=$PATH:/sbin:/usr/sbin
[ -e "$B/workloads/aim9.so" ] || skip "aim9 plugin not built"

step "kernel repo $REPO"
rc=0
"$here/make-repo.sh" "$REPO" || rc=$?
[ $rc = 77 ] && exit 77
[ $rc = 0 ] || fail "could not make the kernel repo $REPO"

# 1. the two kernels; labels named after the config recipe, so a changed
#    recipe builds anew instead of meeting a label of the old build
recipe=$(cat "$top/configs/kernel/mmbench.config" "$here/abhost-guest.config" | sha256sum | cut -c1-8)
build() {
	"$MM" kernel build --tree "$REPO" --ref v6.12-debian --base-config tinyconfig \
		--config "$here/abhost-guest.config" --name "$1-$recipe" "${@:2}" ||
		fail "kernel build of $1 failed"
}
step "kernel build: base and slow-brk-tunable, with kexec, virtio-blk and ext4"
build abhost-base
build abhost-slow-brk --patch "$top/tests/fixtures/kernel/slow-brk-tunable"
KA="$MMBENCH_CACHE/labels/abhost-base-$recipe/bzImage"
KB="$MMBENCH_CACHE/labels/abhost-slow-brk-$recipe/bzImage"
[ -f "$KA" ] && [ -f "$KB" ] || fail "no bzImage in $MMBENCH_CACHE/labels"
relA=$(sed -n 's/^release=//p' "$MMBENCH_CACHE/labels/abhost-base-$recipe/meta")
relB=$(sed -n 's/^release=//p' "$MMBENCH_CACHE/labels/abhost-slow-brk-$recipe/meta")

# 2. the initramfs
step "initramfs with kexec"
"$B/tests/abhost-initramfs" "$work/initramfs.cpio" "$MM" "$B/workloads" "$here/abhost-init.sh" \
	"$(command -v kexec)" || fail "could not make the initramfs"

CMD="console=ttyS0 panic=1 mmb_brk_loops=$LOOPS"
# disk NAME ARG...: the disk of a machine whose first boot starts ab --host ARG...
disk() {
	local d="$work/$1.d"
	mkdir -p "$d"
	cp "$KA" "$d/a.bzImage"
	cp "$KB" "$d/b.bzImage"
	cp "$work/initramfs.cpio" "$d/initramfs.cpio"
	cp "$here/abhost-brk.yaml" "$d/exp.yaml"
	printf '%s\n' "${@:2}" > "$d/start.args"
	mkfs.ext4 -q -F -d "$d" "$work/$1.img" 256M >/dev/null || fail "mkfs.ext4 -d failed"
}
# machine NAME: boot it on the default kernel (A) until it powers off
machine() {
	local rc=0
	timeout "$GUARD" qemu-system-x86_64 -machine q35 -accel tcg \
		-icount shift=3,sleep=off,align=off -rtc base=utc,clock=vm -cpu qemu64 -smp 1 -m 1G \
		-nodefaults -no-user-config -display none -serial "file:$work/$1.console" \
		-kernel "$KA" -initrd "$work/initramfs.cpio" -append "$CMD" \
		-drive "file=$work/$1.img,format=raw,if=virtio" || rc=$?
	[ $rc = 124 ] && { tail -n 40 "$work/$1.console"; fail "$1: the guest hung (${GUARD}s guard)"; }
	[ $rc = 0 ] || { tail -n 40 "$work/$1.console"; fail "$1: qemu exited $rc"; }
	for f in boots.log campaign.out status.out ab.db; do
		debugfs -R "dump /$f $work/$1.$f" "$work/$1.img" >/dev/null 2>&1 || true
	done
	[ -z "$KEEP" ] || { mkdir -p "$KEEP" && cp "$work/$1".?* "$KEEP/" 2>/dev/null || true; }
	echo "--- $1: boots"; cat "$work/$1.boots.log" 2>/dev/null || true
	echo "--- $1: campaign"; cat "$work/$1.campaign.out" 2>/dev/null || true
	echo "--- $1: status"; cat "$work/$1.status.out" 2>/dev/null || true
}

# 4. two rounds, kexec between the boots
step "the stand-in machine: ab --host --rounds 2, kexec between boots"
disk ab --kernel-a /disk/a.bzImage --kernel-b /disk/b.bzImage \
	--initrd-a /disk/initramfs.cpio --initrd-b /disk/initramfs.cpio --cmdline-b "$CMD" \
	--base-name base --new-name slow-brk --rounds 2 /disk/exp.yaml
machine ab
[ -s "$work/ab.ab.db" ] || { tail -n 60 "$work/ab.console"; fail "no DB on the disk"; }
grep -q "^status done" "$work/ab.status.out" || { tail -n 60 "$work/ab.console"; fail "the campaign did not end done"; }
grep -q "^failures 0 of" "$work/ab.status.out" || fail "failures in the campaign"
printf '%s\n' "$relA $CMD" "$relB $CMD" "$relA $CMD" > "$work/want.boots"
diff -u "$work/want.boots" "$work/ab.boots.log" || fail "boots: not A, kexec B, kexec A"
grep -c "kexec: Starting new kernel\|kexec_core: Starting new kernel" "$work/ab.console" |
	grep -qx 2 || fail "not two kexecs on the console"
sq() { sqlite3 "$work/ab.ab.db" "$@"; }
seq=$(sq "SELECT group_concat(k.label || '@' || e.value, ' ') FROM runs r JOIN kernels k ON r.kernel_id = k.id
	JOIN run_env e ON e.run_id = r.id AND e.key = 'host.kernel.release' ORDER BY r.id")
[ "$seq" = "base@$relA slow-brk@$relB slow-brk@$relB base@$relA" ] || fail "run sequence: $seq"
[ "$(sq "SELECT group_concat(value, ' ') FROM run_env WHERE key = 'ab.host.mode'")" = "kexec kexec kexec kexec" ] ||
	fail "ab.host.mode"
# the verdict: the guest's own (ab_report at the campaign's end) and the
# host's compare of the DB read back; a folded row joined into one line
unwrap() {
	awk 'NR > 1 && /^  [^ ]/ { sub(/^  /, " "); printf "%s", $0; next }
	     NR > 1 { print "" } { printf "%s", $0 } END { print "" }' "$@"
}
brk_regression() {
	unwrap "$1" | grep -E '^aim9 .*brk_test\.ops_per_sec \[' | head -n 1 > "$work/row"
	grep -qE "(: | )regression( |$)" "$work/row"
}
brk_regression "$work/ab.campaign.out" || fail "the guest's verdict: brk_test not a regression: $(cat "$work/row")"
"$MM" compare --db "$work/ab.ab.db" base slow-brk > "$work/cmp.out" 2>&1 ||
	{ cat "$work/cmp.out"; fail "compare on the host failed"; }
cat "$work/cmp.out"
brk_regression "$work/cmp.out" || fail "the host's compare: brk_test not a regression: $(cat "$work/row")"

# 5. a kernel that panics: back to the default kernel, the failure counted
step "the stand-in machine: B panics at boot"
# --seed 1: the round's order is B A, so B is booted first and nothing runs
disk panic --kernel-a /disk/a.bzImage --kernel-b /disk/b.bzImage \
	--initrd-a /disk/initramfs.cpio --initrd-b /disk/initramfs.cpio \
	--cmdline-b "console=ttyS0 panic=1 rdinit=/no-such-init" --base-name base \
	--new-name slow-brk --rounds 1 --seed 1 --max-failures 2 /disk/exp.yaml
machine panic
grep -q "Kernel panic" "$work/panic.console" || fail "the bad kernel did not panic"
grep -q "^status failed" "$work/panic.status.out" || fail "the campaign did not end failed"
grep -q "^failures 2 of 2" "$work/panic.status.out" || fail "not two failures"
[ "$(grep -c "expected slow-brk, came up as $relA" "$work/panic.status.out")" = 2 ] ||
	fail "the failures do not say the boot came up as the default kernel"
printf '%s\n' "$relA $CMD" "$relA $CMD" "$relA $CMD" > "$work/want.boots"
diff -u "$work/want.boots" "$work/panic.boots.log" || fail "boots: not the default kernel three times"
step "pass"
