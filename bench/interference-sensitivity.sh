#!/bin/bash
# Verdicts under an intermittent CPU hog (on a third of the time), at fixed
# machine time per trial: how often an injected 5% regression is found, and
# how often an A/A pair gets a false verdict, with the guard (default
# compare) and without it (--no-guard).  Needs a machine that is otherwise
# quiet; say so and stop when it is not.
#   TRIALS=20 ITER=10 ./bench/interference-sensitivity.sh
set -eu
B=${MMBENCH_BUILD:-build}
MMB=$B/mmbench
TMP=$(mktemp -d); [ -n "${KEEP:-}" ] && echo "keeping $TMP"
HOG=
trap '[ -n "$HOG" ] && kill $HOG 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$TMP"' EXIT
export MMBENCH_STATE=$TMP MMBENCH_PLUGIN_PATH=$B/tests/plugins
unset MMBENCH_INTERFERENCE
TRIALS=${TRIALS:-20}
ITER=${ITER:-10}

read -r _ u1 n1 s1 i1 _ < /proc/stat; sleep 1; read -r _ u2 n2 s2 i2 _ < /proc/stat
busy=$(( 100 * ((u2+n2+s2) - (u1+n1+s1)) / ((u2+n2+s2+i2) - (u1+n1+s1+i1) + 1) ))
if [ "$busy" -gt 5 ] && [ -z "${FORCE:-}" ]; then
	echo "interference-sensitivity: machine busy (${busy}% CPU used by others): not measured"
	exit 0
fi

# the hog: on 0.5 s, off 1 s, from a random phase, for the whole trial
hog_start() {
	( sleep "0.$((RANDOM % 10))"
	  while :; do timeout 0.5 sh -c 'while :; do :; done' || true; sleep 1; done ) &
	HOG=$!
}
hog_stop() { kill $HOG 2>/dev/null; pkill -P $HOG 2>/dev/null || true; wait $HOG 2>/dev/null || true; HOG=; }

verdict() {	# db -> "regression" / "improvement" / "no" / "inconclusive" for the one row
	local out
	out=$("$MMB" compare --verbose --db "$1" "${@:2}" a b 2>/dev/null | grep -E '^  b ' | head -n 1)
	case $out in
	*inconclusive*) echo inconclusive ;;
	*regression*) echo regression ;;
	*improvement*) echo improvement ;;
	*) echo no ;;
	esac
}

declare -A count
for kind in aa ab; do
	for t in $(seq 1 "$TRIALS"); do
		db=$TMP/$kind-$t.db
		for label in a b; do
			slow=0
			[ "$kind" = ab ] && [ "$label" = b ] && slow=5
			cat > "$TMP/s.yaml" <<EOC
experiment: sens
iterations: $ITER
warmup: 1
workloads:
  - name: spin
    params: { threads: 2, ms: 100, slow_pct: $slow }
EOC
			hog_start
			"$MMB" run --db "$db" --name $label "$TMP/s.yaml" -q > /dev/null 2>&1
			hog_stop
		done
		g=$(verdict "$db")
		r=$(verdict "$db" --no-guard)
		count[$kind-guard-$g]=$(( ${count[$kind-guard-$g]:-0} + 1 ))
		count[$kind-raw-$r]=$(( ${count[$kind-raw-$r]:-0} + 1 ))
	done
done
for mode in guard raw; do
	aa_false=$(( ${count[aa-$mode-regression]:-0} + ${count[aa-$mode-improvement]:-0} ))
	ab_found=${count[ab-$mode-regression]:-0}
	printf 'interference-sensitivity (%s): 5%% regression found in %d/%d trials (%d inconclusive); A/A false verdicts %d/%d (%d inconclusive); %d iterations a label, hog on 1/3 of the time\n' \
		"$( [ $mode = guard ] && echo "with the guard" || echo "--no-guard")" \
		"$ab_found" "$TRIALS" "${count[ab-$mode-inconclusive]:-0}" "$aa_false" "$TRIALS" \
		"${count[aa-$mode-inconclusive]:-0}" "$ITER"
done
