#!/bin/sh
# make check-arm64: an arm64 guest end to end, under TCG on any host.
#
#  1. the git repo of Debian's linux-source-6.12 (tests/kernel/make-repo.sh,
#     shared with make check-kernel)
#  2. kernel build --arch arm64 (tinyconfig + mmbench.config +
#     configs/kernel/arm64.config, cross-built): the image is an arm64 Image
#     and the cache's meta says arm64
#  3. mmbench ab --arch arm64 --clock virtual of
#     tests/fixtures/kernel/arm64-no-batched-tlb (no
#     ARCH_WANT_BATCHED_UNMAP_TLB_FLUSH) on a short pageout: it prints a
#     verdict for pageout, every run is recorded with vm.arch arm64, and
#     compare states the guest's arch; with --profile each boot's guest
#     records a profile (the built-in sampler: no perf in the guest) whose
#     rows name reclaim's kernel functions, and compare --profile shows it;
#     the swap is the experiment's (swap: {zram}), set up in the guest.  The verdict itself is not checked:
#     TCG's TLB is not the hardware's (docs/kernel-ab.md, "arm64 guests").
# Kernels are cached in $MMBENCH_BUILD/cache/kernel (MMBENCH_KERNEL_CACHE)
# like check-kernel's.  Exit 0 pass, 77 skip, else fail.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
B=$(cd "${MMBENCH_BUILD:-$top/build}" && pwd)
MMB_SQLEXT=$B/sqlite/mmbsamples
sqlite3() { command sqlite3 -cmd ".load $MMB_SQLEXT" "$@"; }
MM="$B/mmbench"
FIX="$top/tests/fixtures/kernel/arm64-no-batched-tlb"
EXP="$here/pageout-arm64-short.yaml"
REPO="$B/cache/linux-6.12.git"
export MMBENCH_CACHE="${MMBENCH_KERNEL_CACHE:-$B/cache/kernel}"
ROUNDS=${MMBENCH_AB_ROUNDS:-2}

work=$(mktemp -d /tmp/mmbench-arm64.XXXXXX)
export MMBENCH_DB="$work/ab.db"
export MMBENCH_STATE="$work/state"
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
t_start=$(date +%s)
step() { echo "== [$(( $(date +%s) - t_start ))s] $*"; }

[ -x "$MM" ] || fail "$MM not built"
for t in qemu-system-aarch64 aarch64-linux-gnu-gcc readelf git make; do
	command -v $t >/dev/null 2>&1 || skip "$t not installed (tools/install-deps.sh kernel)"
done
[ -x "$B/aarch64/mmbench" ] && [ -e "$B/aarch64/workloads/pageout.so" ] && [ -x "$B/aarch64/busybox" ] ||
	fail "the arm64 guest's programs are not built (make guest-arm64)"

step "kernel repo $REPO"
rc=0
"$here/make-repo.sh" "$REPO" || rc=$?
[ $rc = 77 ] && exit 77
[ $rc = 0 ] || fail "could not make the kernel repo $REPO"

step "kernel build --arch arm64"
"$MM" kernel build --arch arm64 --tree "$REPO" --ref v6.12-debian --base-config tinyconfig \
	--name v6.12-debian-arm64 >"$work/kb.out" 2>"$work/kb.err" || {
	cat "$work/kb.err"; fail "kernel build --arch arm64 failed"; }
cat "$work/kb.err" "$work/kb.out"
img=$(cut -f3 "$work/kb.out")
case $img in */Image) ;; *) fail "the arm64 kernel's image is '$img', not an Image" ;; esac
od -A n -t x1 -j 56 -N 4 "$img" | grep -q "41 52 4d 64" || fail "$img has no arm64 Image magic (ARMd)"
grep -qx "arch=arm64" "$(dirname "$img")/meta" || fail "the cache's meta does not say arm64"

step "ab --arch arm64 --clock virtual: arm64-no-batched-tlb on pageout"
"$MM" ab --arch arm64 --tree "$REPO" --base v6.12-debian --base-config tinyconfig \
	--patch "$FIX" --accel tcg --clock virtual --cpus 2 --mem 512M --rounds "$ROUNDS" \
	--profile --no-plots "$EXP" >"$work/ab.out" 2>"$work/ab.err" || {
	cat "$work/ab.err" "$work/ab.out"; fail "mmbench ab --arch arm64 failed"; }
cat "$work/ab.err" "$work/ab.out"
grep -E '^pageout .*seconds_per_iteration \[' "$work/ab.out" | head -n 1 >"$work/row"
[ -s "$work/row" ] || fail "no pageout seconds_per_iteration row in the comparison"
grep -Eq "(regression|improvement|no significant change|inconclusive)$" "$work/row" ||
	fail "the pageout row has no verdict: $(cat "$work/row")"
echo "verdict: $(cat "$work/row")"
grep -q "^arch: arm64 (the guest's)" "$work/ab.out" || fail "compare does not state the arch"
grep -q "booting .* \[arm64, tcg-icount, virt," "$work/ab.err" || fail "the boots do not say arm64 on virt"
n=$(sqlite3 "$MMBENCH_DB" "SELECT count(*) FROM runs r JOIN run_env e ON e.run_id = r.id
	WHERE e.key = 'vm.arch' AND e.value = 'arm64' AND r.status = 'complete'")
[ "$n" -ge $((2 * ROUNDS)) ] || fail "expected $((2 * ROUNDS)) complete runs with vm.arch arm64, got $n"
# the experiment's zram swap, set up by the guest's runner (swapon(2))
n=$(sqlite3 "$MMBENCH_DB" "SELECT count(*) FROM run_env WHERE key = 'swap.zram'")
[ "$n" -ge $((2 * ROUNDS)) ] || fail "expected $((2 * ROUNDS)) runs with the experiment's zram swap, got $n"
# --profile: every boot's guest profiled pageout with the built-in sampler
# (no perf in the guest), kernel symbols named from the guest's kallsyms
n=$(sqlite3 "$MMBENCH_DB" "SELECT count(*) FROM profiles WHERE workload = 'pageout'
	AND note = 'built-in sampler, every CPU'")
[ "$n" -ge $((2 * ROUNDS)) ] || fail "expected $((2 * ROUNDS)) built-in profiles of pageout, got $n"
sqlite3 "$MMBENCH_DB" "SELECT DISTINCT name FROM profile_rows WHERE kind = 'self'" >"$work/syms"
grep -Eqx "shrink_folio_list|try_to_unmap_one|ptep_clear_flush|set_tlb_ubc_flush_pending|reclaim_folio_list.*|__remove_mapping|add_to_swap_cache|zram_submit_bio" "$work/syms" ||
	{ cat "$work/syms"; fail "no reclaim symbol among the guest profiles' rows"; }
labels=$(sed -n 's/^ab: A = \([^ ]*\) .*, B = \([^ ]*\) .*/\1 \2/p' "$work/ab.err" | head -n 1)
[ -n "$labels" ] || fail "ab did not name its kernels A and B"
# shellcheck disable=SC2086 # two labels
"$MM" compare --profile $labels >"$work/prof" 2>&1 || true
grep -q "^perf-profile of pageout: .*(built-in sampler, every CPU)" "$work/prof" ||
	{ cat "$work/prof"; fail "compare --profile shows no pageout profiles"; }
grep -E "perf-profile\.self\.cycles-pp\.(ptep_clear_flush|set_tlb_ubc_flush_pending|arch_tlbbatch_flush)$" \
	"$work/prof" || echo "(ptep_clear_flush and the batch's functions are under 1% of both sides)"
step "done"
echo "ok"
