#!/bin/bash
# False verdicts of `mmbench ab` on an A/A under TCG: the old pooled rule
# against the level-aware test, on the same data (make bench KAA=1; never
# make check: it boots dozens of kernels).
#
# KAA_REPS (30) independent A/As of tests/fixtures/kernel/noop against its
# base at ab's default rounds (tests/kernel/aim9-brk-short.yaml), fresh
# labels each, all in one DB.  Then each A/A is compared twice: as compare
# does by default (runs are the unit when a label has several) and with
# --unit iteration (every iteration pooled, the rule before levels).  A KPI
# row called a regression or an improvement is a false verdict.  Printed:
# per rule, false verdicts / A/As with the exact (Clopper-Pearson) 95%
# upper bound, the wall time per A/B and the --precision planner's answer
# for 5% and 2% from the first A/A's rounds.
#
# Env: MMBENCH_BUILD (build), KAA_TREE (the check-kernel repo,
#   $MMBENCH_BUILD/cache/linux-6.12.git), KAA_REPS (30), KAA_ROUNDS (3),
#   KAA_DB (keep the DB; default a temporary one), MMBENCH_KERNEL_CACHE.
#   KAA_ANALYSE_ONLY=1 with KAA_DB: compare an existing campaign again.
set -u
cd "$(dirname "$0")/.." || exit 1
B=$(cd "${MMBENCH_BUILD:-build}" && pwd) || exit 1
MM=$B/mmbench
TREE=${KAA_TREE:-$B/cache/linux-6.12.git}
REPS=${KAA_REPS:-30}
ROUNDS=${KAA_ROUNDS:-3}
EXP=tests/kernel/aim9-brk-short.yaml
FIX=tests/fixtures/kernel/noop
export MMBENCH_CACHE=${MMBENCH_KERNEL_CACHE:-$B/cache/kernel}

die() { echo "kernel-aa: $*" >&2; exit 1; }
[ -x "$MM" ] || die "$MM not built (run make)"
for n in $REPS $ROUNDS; do
	[[ $n =~ ^[0-9]+$ ]] && [ "$n" -gt 0 ] || die "'$n' is not a count (KAA_REPS, KAA_ROUNDS)"
done
T=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$T"' EXIT
export MMBENCH_DB=${KAA_DB:-$T/aa.db}
export MMBENCH_STATE=$T/state

if [ -z "${KAA_ANALYSE_ONLY:-}" ]; then
	if [ -z "${KAA_TREE:-}" ]; then
		mkdir -p "$B/cache"
		tests/kernel/make-repo.sh "$TREE" || die "no kernel repo in $TREE"
	fi
	command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 not installed"
	echo "A/A under TCG: $REPS A/As of the noop patch, $ROUNDS rounds each, $(getconf _NPROCESSORS_ONLN) host CPUs"
	echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
	for rep in $(seq 1 "$REPS"); do
		extra=()
		# the first two print the planner's answer (no extra boots: --max-rounds = rounds)
		[ "$rep" = 1 ] && extra=(--precision 5% --max-rounds "$ROUNDS")
		[ "$rep" = 2 ] && extra=(--precision 2% --max-rounds "$ROUNDS")
		t0=$(date +%s)
		"$MM" ab --tree "$TREE" --base v6.12-debian --base-config tinyconfig --accel tcg \
			--cpus 2 --mem 1G --rounds "$ROUNDS" --no-plots --patch "$FIX" "${extra[@]}" \
			--base-name "kaa-base-$rep" --new-name "kaa-new-$rep" "$EXP" >"$T/out" 2>"$T/err" ||
			{ cat "$T/err" "$T/out"; die "A/A $rep failed"; }
		echo "$(( $(date +%s) - t0 ))" >> "$T/walls"
		grep -h "iteration.* per boot" "$T/err" | sed 's/^/  plan: /'
		printf '  A/A %s done (%ss, load %s)\n' "$rep" "$(tail -1 "$T/walls")" "$(cut -d' ' -f1 /proc/loadavg)"
	done
	echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
fi

# Count the A/As with a false KPI verdict under each rule.
for unit in auto iteration; do
	false_n=0 n=0
	for rep in $(seq 1 "$REPS"); do
		"$MM" compare --unit "$unit" --format csv --monitors none "kaa-base-$rep" "kaa-new-$rep" \
			> "$T/c.csv" 2>/dev/null || continue
		n=$((n + 1))
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			$col["monitor"] == 0 && ($col["verdict"] == "regression" || $col["verdict"] == "improvement") { bad = 1 }
			END { exit !bad }' "$T/c.csv" && false_n=$((false_n + 1))
		[ "$unit" = auto ] && awk -F, -v rep="$rep" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			$col["monitor"] == 0 && $col["kernel"] != $col["baseline"] && $col["metric"] ~ /brk_test/ {
				printf "  A/A %s: %s %+.2f%% [%+.2f%%, %+.2f%%] p=%s %s\n", rep, $col["test_unit"],
					$col["rel_pct"], $col["rel_lo_pct"], $col["rel_hi_pct"], $col["p"], $col["verdict"] }' \
			"$T/c.csv"
	done
	[ "$n" -gt 0 ] || die "no A/A to compare in $MMBENCH_DB"
	# exact one-sided 95% upper bound of a binomial share (Clopper-Pearson), by bisection
	awk -v k="$false_n" -v n="$n" -v u="$unit" 'function cdf(p,   i, s, t) {
			s = 0; t = (1 - p) ^ n
			for (i = 0; i <= k; i++) { s += t; t *= (n - i) / (i + 1) * p / (1 - p) }
			return s }
		BEGIN { lo = k / n; hi = 1
			for (j = 0; j < 60; j++) { m = (lo + hi) / 2; if (cdf(m) > 0.05) lo = m; else hi = m }
			if (k == n) hi = 1
			printf "unit %-9s: %d of %d A/As called a change (%.1f%%; 95%% upper bound %.1f%%)\n",
				u, k, n, 100 * k / n, 100 * hi }'
done
[ -s "$T/walls" ] && awk '{ s += $1 } END { printf "wall time per A/B: %.0f s (%d A/Bs)\n", s / NR, NR }' "$T/walls"
exit 0
