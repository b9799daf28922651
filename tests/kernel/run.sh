#!/bin/sh
# make check-kernel: the kernel A/B end to end, under TCG.
#
#  1. a git repo of Debian's linux-source-6.12 (made once, cached in
#     $MMBENCH_BUILD/cache/linux-6.12.git)
#  2. a patch that does not apply: exit 2 naming patch and file, the
#     user's tree untouched
#  3. mmbench ab --clock virtual with tests/fixtures/kernel/slow-brk-tunable
#     booted with mmb_brk_loops=$MMBENCH_AB_VLOOPS (default 40, about -6%
#     on the virtual clock, whose CI at 3 rounds is about +-1%: a busy host
#     does not move it, docs/kernel-ab.md): compare must call brk_test a
#     significant regression; then one real-clock A/B of the same fixture
#     at mmb_brk_loops=$MMBENCH_AB_LOOPS (default 5000, about -69%): the
#     path works end to end, and on a busy host it may end "inconclusive"
#     if it says why; compare refuses to mix the two clocks
#  4. the same (virtual) with tests/fixtures/kernel/noop (a comment): no
#     significant change (or, once in twenty by design, a small and weak one)
#  5. re-running (3) resumes: nothing rebuilt, no round re-run
#  6. a guest that panics mid-run: a failed run, console tail printed, the
#     samples that arrived before kept; an iteration longer than the hang
#     timeout completes (heartbeats); a boot beside busy loops on the host
#     has its iterations disturbed, and on the virtual clock it does not
#  7. a fragment option Kconfig drops: exit 2 naming the option
# Kernels are cached in $MMBENCH_BUILD/cache/kernel across runs (a clean
# tinyconfig build takes minutes; later runs reuse it).  Exit 0 pass,
# 77 skip, else fail.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
B=$(cd "${MMBENCH_BUILD:-$top/build}" && pwd)
# the samples view reads blocks through mmb_samples() (docs/store.md)
MMB_SQLEXT=$(cd "$B" && pwd)/sqlite/mmbsamples
sqlite3() { command sqlite3 -cmd ".load $MMB_SQLEXT" "$@"; }
MM="$B/mmbench"
FIX="$top/tests/fixtures/kernel"
EXP="$here/aim9-brk-short.yaml"
REPO="$B/cache/linux-6.12.git"
export MMBENCH_CACHE="${MMBENCH_KERNEL_CACHE:-$B/cache/kernel}"
ROUNDS=${MMBENCH_AB_ROUNDS:-3}
LOOPS=${MMBENCH_AB_LOOPS:-5000}
VLOOPS=${MMBENCH_AB_VLOOPS:-40}

work=$(mktemp -d /tmp/mmbench-kernel.XXXXXX)
export MMBENCH_DB="$work/ab.db"
export MMBENCH_STATE="$work/state"
spin=""	# busy loops of step 6c, never left behind
# shellcheck disable=SC2086 # a list of pids
# (set -e holds in the trap too: a failing kill must not set the exit status)
trap 'if [ -n "$spin" ]; then kill $spin 2>/dev/null || true; fi; rm -rf "$work"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
t_start=$(date +%s)
step() { echo "== [$(( $(date +%s) - t_start ))s] $*"; }

[ -x "$MM" ] || fail "$MM not built"
case $LOOPS$VLOOPS in ''|*[!0-9]*) fail "MMBENCH_AB_LOOPS='$LOOPS' or MMBENCH_AB_VLOOPS='$VLOOPS' is not a number" ;; esac
for t in qemu-system-x86_64 git make gcc busybox; do
	command -v $t >/dev/null 2>&1 || skip "$t not installed"
done
[ -e "$B/workloads/aim9.so" ] || skip "aim9 plugin not built"

# 1. the kernel repo
step "kernel repo $REPO"
rc=0
"$here/make-repo.sh" "$REPO" || rc=$?
[ $rc = 77 ] && exit 77
[ $rc = 0 ] || fail "could not make the kernel repo $REPO"
head_before=$(git -C "$REPO" rev-parse HEAD)
branch_before=$(git -C "$REPO" symbolic-ref -q HEAD || echo detached)

# 2a. a patch that does not apply
step "a patch that does not apply"
rc=0
"$MM" kernel build --tree "$REPO" --ref v6.12-debian --base-config tinyconfig \
	--patch "$FIX/bad" --name bad-patch >"$work/out" 2>"$work/err" || rc=$?
cat "$work/err"
[ $rc = 2 ] || fail "non-applying patch: exit $rc, expected 2"
grep -q "0001-mm-mmap-does-not-apply.patch does not apply" "$work/err" ||
	fail "the error does not name the patch"
grep -q "mm/mmap.c" "$work/err" || fail "the error does not name the failing file"
[ "$(git -C "$REPO" rev-parse HEAD)" = "$head_before" ] || fail "the user's HEAD moved"
[ "$(git -C "$REPO" symbolic-ref -q HEAD || echo detached)" = "$branch_before" ] ||
	fail "the user's branch changed"
[ -z "$(git -C "$REPO" status --porcelain)" ] || fail "the user's work tree was touched"
"$MM" kernel list | grep -q "^bad-patch " && fail "a failed build is listed"

# 3. slow-brk: a regression on brk_test, found on the virtual clock
ab() {
	"$MM" ab --tree "$REPO" --base v6.12-debian --base-config tinyconfig \
		--accel tcg --cpus 2 --mem 1G --rounds "$ROUNDS" --no-plots "$@" "$EXP"
}
# the size knob reaches both sides' boots; the base kernel hands it to init
slow_ab() {
	MMBENCH_VM_APPEND="mmb_brk_loops=$VLOOPS" ab --clock virtual --patch "$FIX/slow-brk-tunable"
}
# compare's default text folds a row past 80 columns: each line joined with
# its indented continuation lines, a row is one line again
unwrap() {
	awk 'NR > 1 && /^  [^ ]/ { sub(/^  /, " "); printf "%s", $0; next }
	     NR > 1 { print "" } { printf "%s", $0 } END { print "" }' "$@"
}
# the row of brk_test in a compact table, and the regression it must show
brk_row() {
	unwrap "$1" | grep -E '^aim9 .*brk_test\.ops_per_sec \[' | head -n 1 >"$work/row"
	[ -s "$work/row" ] || fail "no brk_test row for $new in the comparison ($1)"
}
step "ab --clock virtual: slow-brk-tunable, mmb_brk_loops=$VLOOPS"
t0=$(date +%s)
slow_ab >"$work/slow.out" 2>"$work/slow.err" || {
	cat "$work/slow.err" "$work/slow.out"; fail "mmbench ab (slow-brk-tunable) failed"; }
t_slow=$(( $(date +%s) - t0 ))
cat "$work/slow.err" "$work/slow.out"
base=$(git -C "$REPO" rev-parse --short=12 v6.12-debian)
new=mm-mmap-busy-loop-in-brk-for-mmb_brk_loops-iterations
# the compact table: one line per row, the compared label in the header
grep -qE "^row .* $new +change |^baseline: .*; compared: $new$" "$work/slow.out" ||
	fail "$new is not the compared kernel"
brk_row "$work/slow.out"
grep -qE "(: | )regression( |$)" "$work/row" || fail "slow-brk-tunable ($VLOOPS loops, virtual clock) not reported as a significant regression: $(cat "$work/row")"
grep -qE ' -[0-9.]+% ' "$work/row" || fail "slow-brk-tunable change is not negative: $(cat "$work/row")"
grep -q "\[tcg-icount\]" "$work/slow.err" || fail "the virtual clock is not reported"
grep -q "^clock: virtual (guest instructions" "$work/slow.out" || fail "compare does not state the clock"
grep -q "boot to first sample .*, QEMU start to agent ready .* (host time); guest clock (virtual s): kernel .*, agent to first sample" "$work/slow.err" ||
	fail "no boot phase breakdown (virtual clock)"
n=$(sqlite3 "$MMBENCH_DB" "SELECT count(*) FROM runs WHERE accel = 'tcg-icount' AND status = 'complete'" 2>/dev/null || echo skip)
[ "$n" = skip ] || [ "$n" -ge $((2 * ROUNDS)) ] || fail "expected $((2 * ROUNDS)) complete tcg-icount runs, got $n"

# 3r. one real-clock A/B of the same fixture, labels of its own: the path
#     works; a busy host may leave it inconclusive, but then it says why
step "ab (real clock): slow-brk-tunable, mmb_brk_loops=$LOOPS"
rc=0
MMBENCH_VM_APPEND="mmb_brk_loops=$LOOPS" ab --patch "$FIX/slow-brk-tunable" \
	--base-name v6.12-debian-real --new-name slow-brk-real >"$work/real.out" 2>"$work/real.err" || rc=$?
cat "$work/real.err" "$work/real.out"
unwrap "$work/real.out" | grep -E '^aim9 .*brk_test\.ops_per_sec \[' | head -n 1 >"$work/real.row" || true
if grep -qE "(: | )regression( |$)" "$work/real.row"; then
	echo "real clock: found: $(cat "$work/real.row")"
elif grep -q "inconclusive" "$work/real.row" &&
	unwrap "$work/real.out" | grep -v '^aim9 ' | grep -Eqi "inconclusive.*(busy|disturbed|interference|clean|drift)"; then
	echo "NOTE: real clock: inconclusive on this host, with the reason: $(cat "$work/real.row")"
else
	fail "real-clock A/B (exit $rc): neither a regression nor an inconclusive verdict with its reason: $(cat "$work/real.row")"
fi
grep -q "\[tcg\]" "$work/real.err" || fail "the accelerator is not reported"
grep -q "boot to first sample .*: QEMU, firmware and decompression .*, agent to first sample" "$work/real.err" ||
	fail "no boot phase breakdown"
grep -q "^clock: real (host time" "$work/real.out" || fail "compare does not state the real clock"
# what else the host ran during those boots (the host side of interference)
sqlite3 "$MMBENCH_DB" "SELECT 'host: others used ' || group_concat(printf('%.0f%%', 100 * value), ' ')
	|| ' of the CPUs during the boots' FROM run_env WHERE key = 'vm.host.foreign_share'" 2>/dev/null || true
# the two clocks are never compared by accident
rc=0
"$MM" compare v6.12-debian-real "$new" >"$work/mix.out" 2>"$work/mix.err" || rc=$?
[ $rc = 2 ] || fail "compare of a real-clock label with a virtual-clock one: exit $rc, expected 2"
grep -q "different clocks: virtual (guest instructions) for $new, real (host time) for v6.12-debian-real" \
	"$work/mix.err" || { cat "$work/mix.err"; fail "the clock refusal does not name the labels"; }
# (--keep-disturbed: on a busy host the real-clock runs may be all disturbed)
"$MM" compare --mix-clocks --keep-disturbed v6.12-debian-real "$new" >"$work/mix.out" 2>"$work/mix.err" ||
	{ cat "$work/mix.err"; fail "compare --mix-clocks failed"; }
grep -q "^clock: MIXED" "$work/mix.out" || fail "compare --mix-clocks does not say the clocks are mixed"

# 4. noop: no significant change
step "ab --clock virtual: noop"
t0=$(date +%s)
# its own base label: ab compares each label's newest --rounds runs, and the
# resume of the slow-brk-tunable A/B (step 5) must still find its own base runs last
ab --clock virtual --patch "$FIX/noop" --base-name v6.12-debian-noop-ab >"$work/noop.out" 2>"$work/noop.err" || {
	cat "$work/noop.err" "$work/noop.out"; fail "mmbench ab (noop) failed"; }
t_noop=$(( $(date +%s) - t0 ))
cat "$work/noop.err" "$work/noop.out"
# An A/A at FDR 5% is called significant one time in twenty by design (and
# two builds that differ in a comment may differ in code layout by a few
# percent), so a CI test cannot demand "no significant change" every time:
# it demands it, or else a change that is small (|change| < 10%) and not
# strong evidence (p(BH) >= 0.001), which a harness that pooled iterations
# as independent samples would fail.
if ! grep -q "^verdict: no significant change" "$work/noop.out"; then
	unwrap "$work/noop.out" | grep -E '^aim9 .*brk_test\.ops_per_sec \[' | head -n 1 >"$work/noop.row"
	[ -s "$work/noop.row" ] || fail "no brk_test row in the noop comparison"
	# p(BH) is the row's last plain number (a folded row's too), the change its first N%
	awk '{
		p = ""; c = ""
		for (i = 1; i <= NF; i++) {
			if (c == "" && $i ~ /^[+-][0-9.]+%$/) c = $i
			if ($i ~ /^[0-9.]+([eE][-+]?[0-9]+)?$/) p = $i
		}
		if (c == "" || p !~ /^[0-9.eE+-]+$/) exit 1
		sub(/%$/, "", c); sub(/^\+/, "", c); c += 0
		if (c < 0) c = -c
		exit !(c < 10 && p + 0 >= 0.001)
	}' "$work/noop.row" ||
		fail "the noop series is a large or strong change: $(cat "$work/noop.row")"
	echo "note: the noop series came out significant at FDR 5% (expected once in" \
		"twenty A/As), small and weak: $(cat "$work/noop.row")"
fi

# 5. resume: the same command again runs nothing
step "ab: resume"
slow_ab >"$work/again.out" 2>"$work/again.err" || {
	cat "$work/again.err"; fail "re-running ab failed"; }
grep -q "$ROUNDS of $ROUNDS rounds already recorded" "$work/again.err" || {
	cat "$work/again.err"; fail "re-running ab did not resume"; }
grep -q "round 1/" "$work/again.err" && fail "re-running ab booted again"
grep -q "from the cache" "$work/again.err" || fail "re-running ab did not use the kernel cache"

# 6. a guest panic mid-run keeps what arrived
step "vm run: guest panic after 2 iterations"
rc=0
"$MM" vm run --kernel "$base" --accel tcg --cpus 2 --mem 1G --test-crash-after 2 \
	"$EXP" >"$work/crash.out" 2>"$work/crash.err" || rc=$?
cat "$work/crash.err"
[ $rc = 1 ] || fail "a guest panic: exit $rc, expected 1"
grep -q "samples received are kept" "$work/crash.err" || fail "no 'samples kept' message"
grep -q "last 25 lines of" "$work/crash.err" || fail "no console tail printed"
if command -v sqlite3 >/dev/null; then
	st=$(sqlite3 "$MMBENCH_DB" "SELECT status FROM runs ORDER BY id DESC LIMIT 1")
	[ "$st" = failed ] || fail "the crashed run is '$st', expected failed"
	ns=$(sqlite3 "$MMBENCH_DB" "SELECT count(*) FROM samples WHERE run_id = (SELECT max(id) FROM runs)")
	[ "$ns" -ge 1 ] || fail "the samples streamed before the panic were lost"
fi

# 6a. an iteration longer than --hang-timeout: the guest's heartbeats
#     (sent beside the stream sink while the runner waits) keep it alive
step "vm run: a 45s iteration under --hang-timeout 20"
cat >"$work/long.yaml" <<'EOF'
experiment: vm-heartbeat
iterations: 1
warmup: 0
timeout: 120s
workloads:
  - name: aim9
    params:
      test: brk_test
      testtime: 45s
EOF
rc=0
"$MM" vm run --kernel "$base" --accel tcg --cpus 2 --mem 1G --hang-timeout 20 \
	"$work/long.yaml" >"$work/long.out" 2>"$work/long.err" || rc=$?
cat "$work/long.err"
[ $rc = 0 ] || fail "a long iteration: exit $rc (heartbeats lost?)"
grep -q "complete: 1 iterations, 1 samples" "$work/long.err" || fail "the long iteration did not arrive"

# 6b. --accel auto: KVM when it works, else TCG by itself.  /dev/kvm may
#     open and QEMU still die or hang under it (no nested virtualisation):
#     the probe must fall back, and the run records the accelerator used.
step "vm run --accel auto (KVM probe, TCG fallback)"
rm -f "$MMBENCH_CACHE/kvm-probe"
rc=0
"$MM" vm run --kernel "$base" --accel auto --cpus 2 --mem 1G "$EXP" \
	>"$work/auto.out" 2>"$work/auto.err" || rc=$?
cat "$work/auto.err"
[ $rc = 0 ] || fail "vm run --accel auto: exit $rc"
if command -v sqlite3 >/dev/null; then
	acc=$(sqlite3 "$MMBENCH_DB" "SELECT accel FROM runs WHERE status = 'complete' ORDER BY id DESC LIMIT 1")
	case $acc in
	kvm) ;;
	tcg)	[ -e /dev/kvm ] && ! grep -qE "falling back to TCG|using TCG \(no KVM" "$work/auto.err" &&
			fail "/dev/kvm is there, the run used TCG, and no fallback was reported"
		;;
	*) fail "vm run --accel auto recorded accelerator '$acc'" ;;
	esac
	echo "auto picked: $acc"
fi

# 6c. a busy host: the guest cannot see it, the host can.  One busy loop
#     per host CPU beside the boot: the run's iterations are disturbed,
#     with the host's share in the reason and in run_env.
step "vm run beside a busy loop per host CPU"
# beside_busy_loops NAME VM-RUN-OPTION...: vm run of $EXP with one busy loop
# per host CPU beside it; its output in $work/NAME.err, its exit in rc
beside_busy_loops() {
	local name=$1
	shift
	for _ in $(seq "$(nproc)"); do
		sh -c 'while :; do :; done' &
		spin="$spin $!"
	done
	rc=0
	"$MM" vm run --kernel "$base" --cpus 2 --mem 1G "$@" "$EXP" \
		>"$work/$name.out" 2>"$work/$name.err" || rc=$?
	# shellcheck disable=SC2086 # a list of pids
	kill $spin
	spin=""
	cat "$work/$name.err"
}
beside_busy_loops busy --accel tcg
[ $rc = 0 ] || fail "vm run on a busy host: exit $rc"
grep -q "the host was busy during the boot (foreign CPU [0-9]*% of [0-9]* CPUs" "$work/busy.err" ||
	fail "a boot beside $(nproc) busy loops is not reported as disturbed by the host"
if command -v sqlite3 >/dev/null; then
	rid=$(sqlite3 "$MMBENCH_DB" "SELECT max(id) FROM runs")
	nd=$(sqlite3 "$MMBENCH_DB" "SELECT count(*) FROM iterations WHERE run_id = $rid AND warmup = 0 AND disturbed LIKE '%host: foreign CPU%'")
	[ "$nd" -ge 1 ] || fail "run $rid: no iteration disturbed by the host"
	sh=$(sqlite3 "$MMBENCH_DB" "SELECT value FROM run_env WHERE run_id = $rid AND key = 'vm.host.foreign_share'")
	[ -n "$sh" ] || fail "run $rid: no vm.host.foreign_share"
	echo "busy host: foreign share $sh, $nd iterations disturbed"
fi
# the same on the virtual clock: the host slows the boot, not its numbers
beside_busy_loops vbusy --clock virtual
[ $rc = 0 ] || fail "vm run --clock virtual on a busy host: exit $rc"
if command -v sqlite3 >/dev/null; then
	rid=$(sqlite3 "$MMBENCH_DB" "SELECT max(id) FROM runs")
	nd=$(sqlite3 "$MMBENCH_DB" "SELECT count(*) FROM iterations WHERE run_id = $rid AND disturbed LIKE '%host:%'")
	[ "$nd" = 0 ] || fail "run $rid (virtual clock): $nd iterations disturbed by the host"
	acc=$(sqlite3 "$MMBENCH_DB" "SELECT accel FROM runs WHERE id = $rid")
	[ "$acc" = tcg-icount ] || fail "run $rid: accel '$acc', expected tcg-icount"
fi

# 7. a fragment option Kconfig drops (last: it reconfigures the shared
#    build dir, which the next A/B then configures back once)
step "a fragment option Kconfig drops"
rc=0
"$MM" kernel build --tree "$REPO" --ref v6.12-debian --base-config tinyconfig \
	--config "$FIX/dropped.config" --name dropped >"$work/out" 2>"$work/err" || rc=$?
cat "$work/err"
[ $rc = 2 ] || fail "dropped option: exit $rc, expected 2"
grep -q "CONFIG_NFS_FS=y (.*dropped.config:4): resolved to not set" "$work/err" ||
	fail "the error does not name CONFIG_NFS_FS and where it was asked for"

# 8. a synthetic 0-day report naming the slow-brk commit: reproduced
step "reproduce a synthetic 0-day report over the slow-brk fixture"
rc=0
MMBENCH_BUILD=$MMBENCH_BUILD "$here/reproduce.sh" "$REPO" || rc=$?
[ $rc = 0 ] || [ $rc = 77 ] || fail "reproduce over the fixture: exit $rc"

"$MM" kernel list
step "timings: slow-brk-tunable ab ${t_slow}s (incl. builds), noop ab ${t_noop}s"
grep -h "built .* in\|boot to first sample" "$work"/*.err || true
echo "PASS"
