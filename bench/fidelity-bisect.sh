#!/bin/bash
# One step of `git bisect run` for a lost pft fidelity: builds the commit
# checked out in the current directory (into its build/, removed first),
# runs a fixed copy of bench/pft-fidelity.sh against the original pft, and
# exits 0 (good) when the paired faults/sec ratio, plugin / original,
# reaches the floor, 1 (bad) below it, 125 (skip) when the commit does not
# build, 128 (stop) when the bench itself fails.
#
# usage: fidelity-bisect.sh -b BENCH_COPY -r PFT [-f FLOOR] [-c CLIENTS]
#                           [-i PAIRS] [-s SIZE]
#   -b  a copy of bench/ made outside the tree before the bisect starts
#       (the bench changes across history; every step must use one)
#   -r  the original pft (docs/workloads.md says how to build it)
#   -f  the good/bad line for the ratio (default 0.95: a loss of 8-10%
#       against a run-to-run spread of about 2%)
#   -c  client count (default 1), -i pairs (default 30), -s size (256M)
# example, from a clone:
#   cp -r bench /tmp/fb
#   git bisect start BAD GOOD
#   git bisect run /tmp/fb/fidelity-bisect.sh -b /tmp/fb -r ~/pft/pft
# Measure with nothing else running: the build finishes before the bench.
set -u

BENCH="" ORIG="" FLOOR=0.95 CLIENTS=1 PAIRS=30 SIZE=256M
die() { echo "fidelity-bisect: $*" >&2; exit 128; }	# 128 stops the bisect
while getopts "b:r:f:c:i:s:" o; do
	case $o in
	b) BENCH=$OPTARG ;;
	r) ORIG=$OPTARG ;;
	f) FLOOR=$OPTARG ;;
	c) CLIENTS=$OPTARG ;;
	i) PAIRS=$OPTARG ;;
	s) SIZE=$OPTARG ;;
	*) sed -n '/^# usage:/,/^# Measure/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 128 ;;
	esac
done
[ -f "$BENCH/pft-fidelity.sh" ] || die "-b: no pft-fidelity.sh in '$BENCH'"
[ -x "$ORIG" ] || die "-r: '$ORIG' is not an executable pft"
[[ $FLOOR =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "-f: '$FLOOR' is not a ratio"
case $(cd "$BENCH" && pwd)/ in
"$(pwd)"/*) die "-b: the bench copy must be outside the tree being bisected" ;;
esac
rev=$(git rev-parse --short HEAD) || die "not in a git tree"

log=${TMPDIR:-/tmp}/fidelity-bisect-$rev.log
# the build regenerates tracked files (man pages): a tree clean before it
# is put back after, or bisect cannot check out the next commit
clean=0
git diff --quiet HEAD && clean=1
restore() { [ "$clean" = 1 ] && git checkout -q -- .; }
trap restore EXIT
rm -rf build
if ! make -j"$(getconf _NPROCESSORS_ONLN)" all > "$log" 2>&1; then
	echo "fidelity-bisect: $rev does not build ($log): skip"
	exit 125
fi
# a bench that fails says nothing about the commit: stop the bisect
out=$(MMBENCH_BUILD=$PWD/build bash "$BENCH/pft-fidelity.sh" -r "$ORIG" -s "$SIZE" \
	-m threads -c "$CLIENTS" -i "$PAIRS" 2>&1) || { echo "$out" | tail -5; die "$rev: the bench failed"; }
line=$(echo "$out" | awk -v c="$CLIENTS" '$1 == "threads" && $2 == c && $3 == "faults/sec" && $4 == "mmbench"')
[ -n "$line" ] || { echo "$out" | tail -5; die "$rev: no ratio in the bench's output"; }
ratio=$(echo "$line" | awk '{print $11}')
echo "fidelity-bisect: $rev: faults/sec $ratio $(echo "$line" | awk '{print $12, $13}') at load $(cut -d' ' -f1 /proc/loadavg)"
awk -v r="$ratio" -v f="$FLOOR" 'BEGIN { exit !(r >= f) }'
