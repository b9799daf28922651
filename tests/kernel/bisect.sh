#!/bin/sh
# make check-bisect: ab --new and bisect on real kernels, under TCG on the
# virtual clock (--clock virtual: a busy host cannot move the numbers).
# (Issue 30's Tests section.)  CI runs it after make check-kernel, whose
# v6.12-debian build it reuses.
#
#  1. a synthetic history on the 6.12 repo of make-repo.sh (branch
#     mmbench-bisect-test, the same shas every run): 14 commits from
#     v6.12-debian, each a comment in Documentation/ except the 10th, which applies
#     tests/fixtures/kernel/slow-brk-tunable (booted with
#     mmb_brk_loops=$MMBENCH_AB_LOOPS, as run.sh's A/B: ab finds it)
#  2. ab --base v6.12-debian --new <the 10th>: labels are git describe of
#     each ref, compare calls brk_test a significant regression
#  3. bisect --good v6.12-debian --bad <the 14th>: names the 10th in
#     <= ceil(log2 14) + 2 = 6 steps, confirms it against its parent
#  4. bisect over the comment-only commits before it: "nothing to bisect",
#     after the endpoint check's added rounds, with a ratio CI; or, when the
#     endpoint check makes its designed false positive (about 4% of A/As),
#     an answer that does not stand: no first bad commit, or one whose
#     confirmation fails
# Prints the wall time of each part.  Exit 0 pass, 77 skip, else fail.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
B=$(cd "${MMBENCH_BUILD:-$top/build}" && pwd)
MM="$B/mmbench"
FIX="$top/tests/fixtures/kernel"
EXP="$here/aim9-brk-short.yaml"
REPO="$B/cache/linux-6.12.git"
export MMBENCH_CACHE="${MMBENCH_KERNEL_CACHE:-$B/cache/kernel}"
LOOPS=${MMBENCH_AB_LOOPS:-5000}
N=14 CULPRIT_AT=10

work=$(mktemp -d /tmp/mmbench-bisect.XXXXXX)
export MMBENCH_DB="$work/bisect.db" MMBENCH_STATE="$work/state"
export MMBENCH_VM_APPEND="mmb_brk_loops=$LOOPS"
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
t_start=$(date +%s)
step() { echo "== [$(( $(date +%s) - t_start ))s] $*"; }

[ -x "$MM" ] || fail "$MM not built"
for t in qemu-system-x86_64 git make gcc busybox; do
	command -v $t >/dev/null 2>&1 || skip "$t not installed"
done
[ -e "$B/workloads/aim9.so" ] || skip "aim9 plugin not built"

# 1. the history: commits made with plumbing on a branch of $REPO (a
#    private index; the work tree is never touched), with a fixed author and
#    dates, so the shas are the same on every run (the kernel cache keeps
#    their builds) and the kernels share check-kernel's build directory of
#    $REPO (each build incremental from v6.12-debian's)
step "kernel repo $REPO and a synthetic history of $N commits"
rc=0
"$here/make-repo.sh" "$REPO" || rc=$?
[ $rc = 77 ] && exit 77
[ $rc = 0 ] || fail "could not make the kernel repo $REPO"
H=$REPO
head_before=$(git -C "$H" rev-parse HEAD)
export GIT_AUTHOR_NAME="Bisect Test" GIT_AUTHOR_EMAIL=bisect@example.org
export GIT_COMMITTER_NAME="Bisect Test" GIT_COMMITTER_EMAIL=bisect@example.org
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"
gi() { GIT_INDEX_FILE="$work/index" git -C "$H" "$@"; }
parent=$(git -C "$H" rev-parse "v6.12-debian^{commit}")
gi read-tree "$parent" || fail "git read-tree"
doc=""
i=1
while [ $i -le $N ]; do
	if [ $i = $CULPRIT_AT ]; then
		gi apply --cached "$FIX"/slow-brk-tunable/*.patch || fail "the fixture does not apply"
		msg=$(sed -n 's/^Subject: \(\[PATCH[^]]*\] \)\{0,1\}//p' "$FIX"/slow-brk-tunable/*.patch | head -n 1)
	else
		doc="${doc}comment $i
"
		blob=$(printf '%s' "$doc" | git -C "$H" hash-object -w --stdin)
		gi update-index --add --cacheinfo "100644,$blob,Documentation/mmbench-bisect.txt"
		msg="Documentation: mmbench bisect comment $i"
	fi
	parent=$(git -C "$H" commit-tree "$(gi write-tree)" -p "$parent" -m "$msg") ||
		fail "git commit-tree"
	[ $i = $CULPRIT_AT ] && culprit=$parent
	i=$((i + 1))
done
git -C "$H" update-ref refs/heads/mmbench-bisect-test "$parent"
bad=$parent
before=$(git -C "$H" rev-parse "$culprit^")
unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE

# labels an earlier run left in the persistent cache name builds of an older
# recipe when configs/kernel/mmbench.config changed since: start clean
label=$(git -C "$H" describe --tags --always --abbrev=12 "$culprit")
stale=$("$MM" kernel list 2>/dev/null | awk -v l="$label" '$1 == "v6.12-debian" || $1 == l || $1 ~ /^bisect-/ { print $1 }')
[ -z "$stale" ] || "$MM" kernel rm $stale >/dev/null || fail "kernel rm $stale"
# and an earlier run's bisect state (a finished bisect would only be replayed)
rm -rf "$MMBENCH_CACHE"/bisect/*-"$(git -C "$H" rev-parse --short=12 "$bad")" \
	"$MMBENCH_CACHE"/bisect/*-"$(git -C "$H" rev-parse --short=12 "$before")"

# 2. ab --new: two refs of one tree
step "ab --base v6.12-debian --new ${culprit%"${culprit#????????????}"}"
t0=$(date +%s)
"$MM" ab --tree "$H" --base v6.12-debian --new "$culprit" --base-config tinyconfig \
	--accel tcg --clock virtual --cpus 2 --mem 1G --rounds 3 --no-plots "$EXP" \
	>"$work/ab.out" 2>"$work/ab.err" || { cat "$work/ab.err" "$work/ab.out"; fail "ab --new failed"; }
t_ab=$(( $(date +%s) - t0 ))
cat "$work/ab.err" "$work/ab.out"
grep -q "A = v6.12-debian (v6.12-debian), B = $label " "$work/ab.err" ||
	fail "ab --new labels are not git describe (expected v6.12-debian and $label)"
grep -qE "^row .* $label +change |^baseline: .*; compared: $label$" "$work/ab.out" ||
	fail "$label is not the compared kernel"
# compare's default text folds a row past 80 columns: joined again here
awk 'NR > 1 && /^  [^ ]/ { sub(/^  /, " "); printf "%s", $0; next }
     NR > 1 { print "" } { printf "%s", $0 } END { print "" }' "$work/ab.out" |
	grep -E '^aim9 .*brk_test\.ops_per_sec \[' | head -n 1 >"$work/row"
grep -qE "(: | )regression( |$)" "$work/row" || fail "ab --new: brk_test not a significant regression: $(cat "$work/row")"

# 3. bisect finds the culprit
step "bisect --good v6.12-debian --bad HEAD of $N commits"
t0=$(date +%s)
"$MM" bisect --tree "$H" --good v6.12-debian --bad "$bad" --metric aim9.brk_test.ops_per_sec \
	--rounds 3 --base-config tinyconfig --accel tcg --clock virtual --cpus 2 --mem 1G "$EXP" \
	>"$work/bisect.out" 2>"$work/bisect.err" || {
	cat "$work/bisect.err" "$work/bisect.out"; fail "bisect failed"; }
t_bisect=$(( $(date +%s) - t0 ))
cat "$work/bisect.err" "$work/bisect.out"
grep -q "^first bad commit: $culprit" "$work/bisect.out" || fail "bisect did not name $culprit"
steps=$(sed -n 's/^steps: \([0-9]*\);.*/\1/p' "$work/bisect.out")
[ -n "$steps" ] && [ "$steps" -le 6 ] || fail "bisect took $steps steps, more than 6"
grep -q "^confirmation: .*NOT confirmed" "$work/bisect.out" && fail "the confirmation failed"
[ "$(git -C "$H" rev-parse HEAD)" = "$head_before" ] || fail "bisect moved the tree's HEAD"
[ -z "$(git -C "$H" status --porcelain)" ] || fail "bisect touched the tree"

# 4. no change: nothing to bisect
step "bisect over comment-only commits"
t0=$(date +%s)
rc=0
"$MM" bisect --tree "$H" --good v6.12-debian --bad "$before" --metric aim9.brk_test.ops_per_sec \
	--rounds 3 --base-config tinyconfig --accel tcg --clock virtual --cpus 2 --mem 1G "$EXP" \
	>"$work/none.out" 2>"$work/none.err" || rc=$?
t_none=$(( $(date +%s) - t0 ))
cat "$work/none.err" "$work/none.out"
if grep -qE "^nothing to bisect: good vs bad is [+-][0-9.]+% \[[+-][0-9.]+%, [+-][0-9.]+%\] \(ratio of means, 95% CI" \
	"$work/none.out"; then
	[ $rc = 1 ] || fail "nothing to bisect: exit $rc, expected 1"
elif grep -qE "^bisect: good vs bad is .*\(Welch p = .* runs\)$" "$work/none.err"; then
	# The endpoint check calls an A/A different in about 4% of bisects
	# (docs/bisect.md, its simulation in test_bisectstep): then the steps
	# run, and what they end with must not stand as a culprit.
	step "the endpoint check called this A/A different (its designed false positive)"
	if grep -q "^no first bad commit: " "$work/none.out"; then
		[ $rc = 1 ] || fail "no first bad commit: exit $rc, expected 1"
	elif grep -q "^first bad commit: " "$work/none.out"; then
		[ $rc = 0 ] || fail "first bad commit: exit $rc, expected 0"
		grep -q "^confirmation: .*NOT confirmed" "$work/none.out" ||
			fail "a comment-only commit was named and confirmed"
	else
		fail "a history without a change: neither 'nothing to bisect' nor an answer (exit $rc)"
	fi
	grep -q "^error: " "$work/none.err" && fail "a history without a change ended in an error"
else
	fail "no 'nothing to bisect' with a ratio CI (exit $rc)"
fi

step "timings: ab --new ${t_ab}s, bisect ${t_bisect}s ($steps steps), no change ${t_none}s"
echo "PASS"
