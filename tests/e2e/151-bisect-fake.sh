#!/bin/bash
# mmbench bisect driven by the synthetic measurement (MMBENCH_BISECT_FAKE:
# the number in a file of the tree at each commit, plus seeded noise), no
# kernels:
#  - argument errors exit 2 with a message naming the argument
#  - a history of 16 commits, one changing the value by 10 sd: bisect names
#    it in <= ceil(log2 16) + 2 = 6 steps, confirms it against its parent,
#    and leaves the user's tree alone; `bisect log` replays with git
#  - the same command again resumes: no new runs measured; with another
#    metric it is refused
#  - a history with no change: "nothing to bisect", exit 1
#  - steps that skip until git has only skipped commits left: "no first bad
#    commit" with the candidates and the steps, exit 1, also when resumed
#  - without MMBENCH_BISECT_FAKE a run is a kernel build (fails here: exit 1)
set -u
MM="$MMBENCH_BUILD/mmbench"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export MMBENCH_CACHE="$work/cache" MMBENCH_DB="$work/db.sqlite"
fail() { echo "FAIL: $*"; exit 1; }
expect() {	# expect RC PATTERN -- command...
	local want=$1 pat=$2 rc=0
	shift 3
	"$@" >"$work/out" 2>"$work/err" || rc=$?
	[ "$rc" = "$want" ] || { cat "$work/out" "$work/err"; fail "$*: exit $rc, expected $want"; }
	grep -q -- "$pat" "$work/out" "$work/err" || { cat "$work/out" "$work/err"; fail "$*: no '$pat'"; }
}
command -v git >/dev/null || { echo "git not installed"; exit 77; }

t="$work/tree"
mkdir -p "$t"
git -C "$t" init -q -b main
gc() { git -C "$t" -c user.name=Tess -c user.email=tess@example.org "$@"; }
echo 100 >"$t/value"
gc add -A
gc commit -q -m "base"
gc tag good
for i in $(seq 1 16); do
	echo "# comment $i" >>"$t/notes"
	[ "$i" = 11 ] && echo 90 >"$t/value"
	gc add -A
	gc commit -q -m "commit $i"
	[ "$i" = 11 ] && culprit=$(git -C "$t" rev-parse HEAD)
done
gc tag bad
head=$(git -C "$t" rev-parse HEAD)
export MMBENCH_BISECT_FAKE=value MMBENCH_BISECT_FAKE_SD=1 MMBENCH_BISECT_SEED=7

expect 2 "--tree DIR is required" -- "$MM" bisect --good good --bad bad --metric f.v
expect 2 "--good REF and --bad REF" -- "$MM" bisect --tree "$t" --bad bad --metric f.v
expect 2 "--metric WORKLOAD.METRIC" -- "$MM" bisect --tree "$t" --good good --bad bad
expect 2 "'fv' has no '.'" -- "$MM" bisect --tree "$t" --good good --bad bad --metric fv
expect 2 "bisect: --good -x: a git ref cannot start" -- "$MM" bisect --tree "$t" --good=-x --bad bad --metric f.v
expect 2 "--ref nosuch: not a commit" -- "$MM" bisect --tree "$t" --good nosuch --bad bad --metric f.v
expect 2 "are one commit" -- "$MM" bisect --tree "$t" --good bad --bad bad --metric f.v
expect 2 "alpha and beta must be in (0, 0.5), not 0.7 and 0.01" -- "$MM" bisect --tree "$t" --good good --bad bad --metric f.v --alpha 0.7
expect 2 "--beta 'x': expected a number" -- "$MM" bisect --tree "$t" --good good --bad bad --metric f.v --beta x
expect 2 "MMBENCH_BISECT_FAKE_SD 'x'" -- env MMBENCH_BISECT_FAKE_SD=x "$MM" bisect --tree "$t" --good good --bad bad --metric f.v

expect 0 "first bad commit: $culprit" -- "$MM" bisect --tree "$t" --good good --bad bad --metric fake.value
grep -q "Author: Tess <tess@example.org>" "$work/out" || fail "no author"
grep -q "commit 11" "$work/out" || fail "no subject"
grep -q "^confirmation: ${culprit:0:12} vs its parent .*Welch p" "$work/out" || fail "no confirmation"
grep -q "NOT confirmed" "$work/out" && fail "the confirmation failed"
steps=$(sed -n 's/^steps: \([0-9]*\);.*/\1/p' "$work/out")
[ -n "$steps" ] && [ "$steps" -le 6 ] || { cat "$work/out"; fail "$steps steps, more than 6"; }
grep -q "overall confidence" "$work/out" || fail "no overall confidence"
[ "$(git -C "$t" rev-parse HEAD)" = "$head" ] || fail "the user's HEAD moved"
[ -z "$(git -C "$t" status --porcelain)" ] || fail "the user's tree was touched"
[ ! -e "$t/.git/BISECT_START" ] || fail "bisect state in the user's tree"
runs=$(cat "$MMBENCH_CACHE"/bisect/*/runs.tsv | wc -l)

# resumed: the same answer, nothing measured again
expect 0 "first bad commit: $culprit" -- "$MM" bisect --tree "$t" --good good --bad bad --metric fake.value
[ "$(cat "$MMBENCH_CACHE"/bisect/*/runs.tsv | wc -l)" = "$runs" ] || fail "the resumed bisect measured again"
# resumed with another metric: refused, its stored runs are of something else
expect 1 "which is not what this command measures" -- "$MM" bisect --tree "$t" --good good --bad bad --metric fake.other
grep -q "metric fake.value" "$work/err" || { cat "$work/err"; fail "the refusal does not say what was measured"; }

# bisect log replays in a fresh clone to the same first bad commit
"$MM" bisect log --tree "$t" --good good --bad bad >"$work/log" || fail "bisect log"
git clone -q "$t" "$work/replay"
git -C "$work/replay" bisect replay "$work/log" >"$work/replay.out" 2>&1 || { cat "$work/replay.out"; fail "replay"; }
grep -q "$culprit is the first bad commit" "$work/replay.out" || { cat "$work/replay.out"; fail "replay differs"; }

# no change between good and bad
echo 100 >"$t/value"
gc commit -q -am "back to 100"
gc tag same
expect 1 "nothing to bisect: good vs bad is" -- "$MM" bisect --tree "$t" --good good --bad same --metric fake.value

# a change the steps cannot place: good 100, three commits at 95, bad 90 at
# sd 2 and --max-rounds 4 (seed 3 skips the last step's commit): git is left
# with only skipped commits, which is an answer (exit 1 with the candidates
# and the steps), not a git failure; resumed, the same answer, nothing measured
for i in 1 2 3; do
	echo 95 >"$t/value"
	echo "# halfway $i" >>"$t/notes"
	gc commit -q -am "halfway $i"
done
echo 90 >"$t/value"
gc commit -q -am "all the way"
gc tag bad2
for pass in first resumed; do
	expect 1 "^no first bad commit: only commits the steps skipped (undecided after --max-rounds 4)" -- \
		env MMBENCH_BISECT_FAKE_SD=2 MMBENCH_BISECT_SEED=3 "$MM" bisect --tree "$t" --good same \
		--bad bad2 --metric fake.value --max-rounds 4
	grep -q "^  $(git -C "$t" rev-parse --short=12 bad2) all the way$" "$work/out" ||
		{ cat "$work/out"; fail "the candidates do not name bad2"; }
	grep -q "^  [0-9a-f]\{12\}  skip " "$work/out" || { cat "$work/out"; fail "no skipped step in the table"; }
	grep -q "^steps: [0-9]*, [0-9]* candidates left" "$work/out" || { cat "$work/out"; fail "no steps line"; }
	grep -q "error: " "$work/err" && { cat "$work/err"; fail "an undecided bisect printed an error"; }
	[ $pass = first ] && runs=$(cat "$MMBENCH_CACHE"/bisect/*-$(git -C "$t" rev-parse --short=12 bad2)/runs.tsv | wc -l)
done
[ "$(cat "$MMBENCH_CACHE"/bisect/*-$(git -C "$t" rev-parse --short=12 bad2)/runs.tsv | wc -l)" = "$runs" ] ||
	fail "the resumed undecided bisect measured again"

# without the synthetic measurement each run is a kernel build of the
# commit: this tree is not a kernel, so the first build fails with its log
expect 1 "log: " -- env -u MMBENCH_BISECT_FAKE "$MM" bisect --tree "$t" --good good --bad bad^ \
	--metric fake.value "$(cd "$(dirname "$0")/../.." && pwd)/configs/quick.yaml"
grep -q "bisect-${head:0:12}\|bisect-$(git -C "$t" rev-parse good | cut -c1-12)" "$work/err" ||
	{ cat "$work/err"; fail "the kernel label is not bisect-SHA12"; }
echo ok
