#!/bin/bash
# How small a regression does `mmbench ab` find under TCG on this machine?
# (make bench KSENS=1; never make check: it boots dozens of kernels.)
#
# One patched kernel serves every size: tests/fixtures/kernel/slow-brk-tunable
# spins mmb_brk_loops times in brk(), the count given on the kernel command
# line through MMBENCH_VM_APPEND (both sides get the parameter; the base
# kernel does not know it and hands it to init).  For each loop count the
# script runs KSENS_REPS independent A/Bs (fresh labels, so nothing is
# resumed) of tests/kernel/aim9-brk-short.yaml with ab's default rounds and
# prints, per size: the mean measured change, how many A/Bs called brk_test
# a significant regression (the power), the median CI half-width and the
# wall time per A/B.  Loop count 0 is the A/A case: every "regression"
# there is a false positive.
#
# KSENS_CLOCK=virtual measures on the virtual clock (ab --clock virtual:
# guest time counts guest instructions, docs/kernel-ab.md); the A/A rows
# then give the false-verdict rate with its 95% upper bound (Clopper-
# Pearson), as they do on the real clock.
#
# Env: MMBENCH_BUILD (build), KSENS_CLOCK (real), KSENS_TREE (the check-kernel repo,
#   $MMBENCH_BUILD/cache/linux-6.12.git), KSENS_LOOPS ("0 80 500 1000 2500"),
#   KSENS_REPS (5), KSENS_ROUNDS (3, ab's default), KSENS_DB (keep the DB;
#   default a temporary one), MMBENCH_KERNEL_CACHE (as check-kernel).
set -u
cd "$(dirname "$0")/.." || exit 1
B=$(cd "${MMBENCH_BUILD:-build}" && pwd) || exit 1
MM=$B/mmbench
TREE=${KSENS_TREE:-$B/cache/linux-6.12.git}
LOOPS=${KSENS_LOOPS:-0 80 500 1000 2500}
REPS=${KSENS_REPS:-5}
ROUNDS=${KSENS_ROUNDS:-3}
CLOCK=${KSENS_CLOCK:-real}
EXP=tests/kernel/aim9-brk-short.yaml
# KSENS_FIX=tests/fixtures/kernel/noop makes every size a true A/A: on the
# virtual clock even 0 loops is a change (the call and the loop's test,
# a few instructions a brk(): about -0.4%, measured).
FIX=${KSENS_FIX:-tests/fixtures/kernel/slow-brk-tunable}
export MMBENCH_CACHE=${MMBENCH_KERNEL_CACHE:-$B/cache/kernel}

die() { echo "kernel-ab-power: $*" >&2; exit 1; }
[ -x "$MM" ] || die "$MM not built (run make)"
if [ -z "${KSENS_TREE:-}" ]; then
	mkdir -p "$B/cache"
	tests/kernel/make-repo.sh "$TREE" || die "no kernel repo in $TREE"
fi
git -C "$TREE" rev-parse -q --verify v6.12-debian >/dev/null 2>&1 ||
	die "$TREE has no v6.12-debian tag"
for n in $LOOPS $REPS $ROUNDS; do
	[[ $n =~ ^[0-9]+$ ]] || die "'$n' is not a number (KSENS_LOOPS, KSENS_REPS, KSENS_ROUNDS)"
done
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 not installed"
case $CLOCK in real|virtual) ;; *) die "KSENS_CLOCK='$CLOCK': real or virtual" ;; esac

T=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$T"' EXIT
export MMBENCH_DB=${KSENS_DB:-$T/ab.db}
export MMBENCH_STATE=$T/state

echo "ab power under TCG, $CLOCK clock, ${FIX##*/}: loops {$LOOPS}, $REPS A/Bs per size, $ROUNDS rounds each, $(getconf _NPROCESSORS_ONLN) host CPUs"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
: > "$T/results"
for loops in $LOOPS; do
	for rep in $(seq 1 "$REPS"); do
		t0=$(date +%s)
		MMBENCH_VM_APPEND="mmb_brk_loops=$loops" "$MM" ab --tree "$TREE" --base v6.12-debian \
			--base-config tinyconfig --accel tcg --clock "$CLOCK" --cpus 2 --mem 1G \
			--rounds "$ROUNDS" --no-plots --patch "$FIX" --base-name "kabp-base-$CLOCK-${FIX##*/}-$loops-$rep" \
			--new-name "kabp-new-$CLOCK-${FIX##*/}-$loops-$rep" "$EXP" >"$T/out" 2>"$T/err" ||
			{ cat "$T/err" "$T/out"; die "ab at $loops loops (A/B $rep) failed"; }
		t=$(( $(date +%s) - t0 ))
		# the brk_test row of the compact table (the new kernel is its one
		# compared label): name stat n base n new change% [lo%, hi%] p(BH) verdict
		row=$(grep -E '^aim9 .*brk_test\.ops_per_sec \[' "$T/out" | head -n 1)
		[ -n "$row" ] || { cat "$T/out"; die "no brk_test row at $loops loops"; }
		chg=$(awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^[-+][0-9.]+%$/) { print $i; exit } }' \
			<<< "$row" | tr -d '%+')
		# the CI is the bracket of percentages (the first bracket is the unit)
		lo=$(grep -o '\[[^]]*%[^]]*\]' <<< "$row" | head -1 | tr -d '[]%+' | awk -F', *' '{ print $1 }')
		hi=$(grep -o '\[[^]]*%[^]]*\]' <<< "$row" | head -1 | tr -d '[]%+' | awk -F', *' '{ print $2 }')
		# any significant verdict counts: at 0 loops both directions are false
		reg=0
		grep -q "regression$" <<< "$row" && reg=1
		[ "$loops" = 0 ] && grep -q "improvement$" <<< "$row" && reg=1
		[ "$FIX" != tests/fixtures/kernel/slow-brk-tunable ] && grep -q "improvement$" <<< "$row" && reg=1
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$loops" "$rep" "$chg" "$lo" "$hi" "$reg" "$t" >> "$T/results"
		printf '  loops %-5s A/B %s: %s%% [%s, %s] %s (%ss, load %s)\n' "$loops" "$rep" "$chg" \
			"$lo" "$hi" "$([ $reg = 1 ] && echo regression || echo -)" "$t" \
			"$(cut -d' ' -f1 /proc/loadavg)"
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
[ -z "${KSENS_RAW:-}" ] || cp "$T/results" "$KSENS_RAW"

# Per size: mean change, power (significant regressions / A/Bs), median CI
# half-width, mean wall time of one A/B.
sort -n -k1,1 -k2,2 "$T/results" | awk -F'\t' '
{ k = $1; if (!(k in n)) order[++no] = k
  n[k]++; c[k] += $3; r[k] += $6; t[k] += $7; hw[k, n[k]] = ($5 - $4) / 2 }
END {
  printf "%7s %5s %12s %8s %16s %10s\n", "loops", "A/Bs", "mean change", "power", "median CI half", "s per A/B"
  for (o = 1; o <= no; o++) {
    k = order[o]; m = n[k]
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
      if (hw[k, j] < hw[k, i]) { x = hw[k, i]; hw[k, i] = hw[k, j]; hw[k, j] = x }
    med = m % 2 ? hw[k, (m + 1) / 2] : (hw[k, m / 2] + hw[k, m / 2 + 1]) / 2
    printf "%7s %5d %11.1f%% %4d/%-3d %15.1f%% %10.0f\n", k, m, c[k] / m, r[k], m, med, t[k] / m
    if (k == 0)
      printf "        A/A: %d of %d called significant; 95%% upper bound of the rate %.1f%% (Clopper-Pearson)\n", r[k], m, 100 * cp_upper(r[k], m)
  }
}
# P(X <= x) for X ~ Binomial(n, p)
function binom_cdf(x, n, p,   i, t, s) {
  if (p >= 1) return x >= n
  t = (1 - p) ^ n; s = t
  for (i = 1; i <= x; i++) { t *= (n - i + 1) / i * p / (1 - p); s += t }
  return s
}
# the exact one-sided 97.5% upper bound of a rate seen x times in n
function cp_upper(x, n,   lo, hi, mid, it) {
  if (x >= n) return 1
  lo = x / n; hi = 1
  for (it = 0; it < 60; it++) { mid = (lo + hi) / 2; if (binom_cdf(x, n, mid) > 0.025) lo = mid; else hi = mid }
  return (lo + hi) / 2
}'
