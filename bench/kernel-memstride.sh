#!/bin/bash
# What the virtual clock cannot see (make bench KMEM=1; docs/kernel-ab.md):
# two kernels that run the same instructions and differ only in where
# their loads go.  tests/fixtures/kernel/mem-stride makes every brk() do
# mmb_brk_loads loads over an 8 MiB buffer, 64 bytes apart (patch 1) or a
# page and a line apart (patches 1 and 2: each load a TLB and cache miss).
# Both are A/B'd (ab, prebuilt labels, KMEM_ROUNDS rounds) in the virtual
# and the real clock, each in a database of its own.  Expected: the real
# clock sees the wide stride as a brk_test regression, the virtual clock
# sees nothing (same instructions).
#
# Env: MMBENCH_BUILD (build), KMEM_TREE (the check-kernel repo), KMEM_LOADS
#   (2000), KMEM_ROUNDS (3), MMBENCH_KERNEL_CACHE (as check-kernel).
set -u
cd "$(dirname "$0")/.." || exit 1
B=$(cd "${MMBENCH_BUILD:-build}" && pwd) || exit 1
MM=$B/mmbench
TREE=${KMEM_TREE:-$B/cache/linux-6.12.git}
LOADS=${KMEM_LOADS:-2000}
ROUNDS=${KMEM_ROUNDS:-3}
FIX=tests/fixtures/kernel/mem-stride
EXP=tests/kernel/aim9-brk-short.yaml
export MMBENCH_CACHE=${MMBENCH_KERNEL_CACHE:-$B/cache/kernel}

die() { echo "kernel-memstride: $*" >&2; exit 1; }
[ -x "$MM" ] || die "$MM not built (run make)"
for n in $LOADS $ROUNDS; do [[ $n =~ ^[0-9]+$ ]] || die "'$n' is not a number"; done
command -v qemu-system-x86_64 >/dev/null || { echo "kernel-memstride: skipped: no qemu-system-x86_64"; exit 0; }
if [ -z "${KMEM_TREE:-}" ]; then
	mkdir -p "$B/cache"
	tests/kernel/make-repo.sh "$TREE" || die "no kernel repo in $TREE"
fi
T=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$T"' EXIT
export MMBENCH_STATE=$T/state
build() {	# build LABEL PATCH...
	local label=$1 args=()
	shift
	for p in "$@"; do args+=(--patch "$p"); done
	"$MM" kernel build --tree "$TREE" --ref v6.12-debian --base-config tinyconfig \
		--name "$label" "${args[@]}" >/dev/null 2>"$T/build.err" ||
		{ cat "$T/build.err"; die "building $label failed"; }
}
build memstride-64 "$FIX"/0001-*.patch
build memstride-4160 "$FIX"/0001-*.patch "$FIX"/0002-*.patch
echo "kernel-memstride: $LOADS loads a brk(), stride 64 vs 4160, $ROUNDS rounds, load $(cut -d' ' -f1-3 /proc/loadavg)"
for clock in virtual real; do
	MMBENCH_VM_APPEND="mmb_brk_loads=$LOADS" MMBENCH_DB=$T/$clock.db "$MM" ab \
		--base-name memstride-64 --new-name memstride-4160 --accel tcg --clock "$clock" \
		--cpus 2 --mem 1G --rounds "$ROUNDS" --no-plots "$EXP" >"$T/out" 2>"$T/err" ||
		{ cat "$T/err" "$T/out"; die "ab ($clock clock) failed"; }
	row=$(grep -E '^aim9 .*brk_test\.ops_per_sec \[' "$T/out" | head -n 1)
	echo "  $clock clock: $row"
done
echo "kernel-memstride: load after $(cut -d' ' -f1-3 /proc/loadavg)"
