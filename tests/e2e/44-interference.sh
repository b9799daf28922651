#!/bin/bash
# Interference (docs/statistics.md, "Disturbed iterations"):
# 1. a CPU hog beside some of one label's iterations marks exactly those
#    iterations disturbed; compare leaves them out, so an A/A pair is not
#    called a regression, while --keep-disturbed shows what the hog did;
# 2. a THP knob flipped mid-run marks that iteration disturbed, names the
#    knob and its new value, and is put back before the next iteration.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
unset MMBENCH_INTERFERENCE	# this test is about the limits

# 2. a knob flipped mid-run (load limits off: this part holds on a busy box too)
kq() { sqlite3 -batch -noheader "$TMP/knob.db" "$@"; }
THP=/sys/kernel/mm/transparent_hugepage
knob_test() {
cur() { sed 's/.*\[\(.*\)\].*/\1/' "$1"; }
orig=$(cur $THP/enabled)
cat > "$TMP/knob.yaml" <<EOC
experiment: knob
iterations: 8
warmup: 0
environment:
  thp: never
workloads:
  - name: spin
    params: { threads: 1, ms: 250 }
EOC
MMBENCH_INTERFERENCE=record "$MMB" run --db "$TMP/knob.db" --name k "$TMP/knob.yaml" -q >"$TMP/out-k" 2>"$TMP/err-k" &
mpid=$!
BG_PIDS="$BG_PIDS $mpid"
flipped=
while kill -0 $mpid 2>/dev/null; do
	if [ -z "$flipped" ] && [ "$(kq "select count(*) from iterations where run_id = 1" 2>/dev/null || echo 0)" -ge 2 ]; then
		echo always > $THP/enabled
		flipped=1
	fi
	sleep 0.05
done
wait $mpid || die "knob run failed: $(cat "$TMP/err-k")"
[ -n "$flipped" ] || die "the run ended before the knob could be flipped"
[ "$(cur $THP/enabled)" = "$orig" ] || die "THP left at $(cur $THP/enabled), was $orig"
nd=$(kq "select count(*) from iterations where run_id = 1 and disturbed is not null")
[ "$nd" = 1 ] || die "expected exactly one disturbed iteration, got $nd: $(kq 'select iteration, disturbed from iterations where run_id = 1')"
why=$(kq "select disturbed from iterations where run_id = 1 and disturbed is not null")
case $why in *"knob thp.enabled changed to always"*) ;; *) die "reason does not name the knob: $why" ;; esac
last=$(kq "select max(iteration) from iterations where run_id = 1")
it=$(kq "select iteration from iterations where run_id = 1 and disturbed is not null")
[ "$it" -lt "$last" ] || die "the flip landed on the last iteration; nothing to check after it"
}
if [ "$(id -u)" = 0 ] && [ -w $THP/enabled ]; then
	knob_test
else
	echo "knob part skipped: needs root and THP sysfs"
fi

# 1. the hog: this part needs a quiet machine (busy_share: e2e-lib.sh)
# float tests without bc: true when the awk expression holds
holds() { awk "BEGIN { exit !($1) }"; }
b=$(busy_share)
[ "$b" -le 5 ] || skip "machine busy (${b}% of the CPUs in use by others): interference detection cannot be checked here"

cat > "$TMP/spin.yaml" <<EOC
experiment: spin
iterations: 10
warmup: 0
workloads:
  - name: spin
    params: { threads: 2, ms: 200 }
EOC

run --name a "$TMP/spin.yaml"
[ $rc -eq 0 ] || die "clean run failed: $(cat "$TMP/err")"
# a shared VM is never silent: the quiet run may brush the limit, never look like the hog
nd=$(q "select count(*) from iterations where run_id = 1 and interference >= 0.25")
[ "$nd" = 0 ] || die "quiet run has $nd hog-like iterations: $(q 'select iteration, disturbed from iterations where run_id = 1')"

# label c: the hog runs from the end of iteration 3 until the end of iteration 8
"$MMB" run --name c "$TMP/spin.yaml" -q >"$TMP/out-c" 2>"$TMP/err-c" &
mpid=$!
BG_PIDS="$BG_PIDS $mpid"
count() { q "select count(*) from iterations where run_id = 2" 2>/dev/null || echo 0; }
hog=
while kill -0 $mpid 2>/dev/null; do
	n=$(count)
	if [ -z "$hog" ] && [ "$n" -ge 3 ]; then
		( while :; do :; done ) &
		hog=$!
		t_on=$(date +%s.%N)
	elif [ -n "$hog" ] && [ "$n" -ge 8 ] && [ -z "${t_off:-}" ]; then
		kill $hog
		wait $hog 2>/dev/null || true
		t_off=$(date +%s.%N)
	fi
	sleep 0.1
done
wait $mpid || die "hog run failed: $(cat "$TMP/err-c")"
[ -n "${t_off:-}" ] || { kill "$hog" 2>/dev/null; die "the run ended before the hog could be stopped"; }

# every iteration wholly inside the hog's window is disturbed, every one
# wholly outside it is clean (the two it straddles may go either way)
inside=0 outside=0 outside_hit=0 outside_why=
while IFS='|' read -r it started elapsed disturbed; do
	end=$(awk "BEGIN { printf \"%.6f\", $started + $elapsed }")
	if holds "$started > $t_on + 0.05 && $end < $t_off - 0.05"; then
		[ -n "$(q "select disturbed from iterations where run_id = 2 and iteration = $it")" ] ||
			die "iteration $it ran beside the hog but is not disturbed"
		case $disturbed in *"foreign CPU"*) ;; *) die "iteration $it: unexpected reason '$disturbed'" ;; esac
		inside=$((inside + 1))
	elif holds "$end < $t_on - 0.05 || $started > $t_off + 0.05"; then
		outside=$((outside + 1))
		[ -z "$disturbed" ] || { outside_hit=$((outside_hit + 1)); outside_why="iteration $it: $disturbed"; }
	fi
done < <(q "select iteration, started, elapsed, CASE WHEN interference >= 0.25 THEN ifnull(disturbed, '') ELSE '' END from iterations where run_id = 2 order by iteration")
[ $inside -ge 2 ] || die "only $inside iterations ran wholly beside the hog"
# a shared box may brush one clean iteration with a neighbour's burst; more is the hog leaking
[ $outside_hit -le 1 ] ||
	die "$outside_hit of $outside iterations that did not overlap the hog look like it (level >= 25%), e.g. $outside_why"
grep -q "disturbed (compare leaves them out)" "$TMP/out-c" || die "run summary does not count the disturbed iterations: $(cat "$TMP/out-c")"

# the record is shown per iteration
"$MMB" show 2 > "$TMP/show" || die "show failed"
grep -q "foreign CPU" "$TMP/show" || die "show lists no interference: $(cat "$TMP/show")"

# default: the hog's values are left out and said so; no regression
"$MMB" compare a c > "$TMP/cmp" || true
grep -q "disturbed)" "$TMP/cmp" || die "compare does not say n (k disturbed): $(cat "$TMP/cmp")"
grep -q "left out" "$TMP/cmp" || die "compare does not say it left values out"
# the block layout (--verbose): a line per kernel
"$MMB" compare --verbose --keep-disturbed a c > "$TMP/keep" || true
chg() { sed -n 's/^  c .* \([-+][0-9.]*\)%  .*/\1/p' "$1" | head -n 1; }
# "n (k disturbed)" widens the n column: the means still line up under their title
col_end() { awk -v re="$2" '{ if (match($0, re)) { print RSTART + RLENGTH; exit } }' "$1"; }
h=$(grep -m1 '^  kernel ' "$TMP/keep" | col_end /dev/stdin '[HAG]mean')
# a's n may carry "(k disturbed)" too when a neighbour brushed the quiet run
ea=$(grep -m1 '^  a ' "$TMP/keep" | col_end /dev/stdin '^  a +[0-9]+( \([0-9]+ disturbed\))? +[0-9.]+')
ec=$(grep -m1 '^  c ' "$TMP/keep" | col_end /dev/stdin 'disturbed\) +[0-9.]+')
[ -n "$h" ] && [ "$h" = "$ea" ] && [ "$h" = "$ec" ] ||
	die "the mean column is out of line (title ends at $h, a's mean at $ea, c's at $ec): $(cat "$TMP/keep")"
kept=$(chg "$TMP/keep")
"$MMB" compare --verbose a c > "$TMP/cmp-v" || true
clean=$(chg "$TMP/cmp-v")
[ -n "$kept" ] || die "no change printed with --keep-disturbed: $(cat "$TMP/keep")"
# The hog takes CPU from a 2-thread spinner in about half of c's
# iterations: keeping them moves c's change down (25-35 points here; 8 is
# the bar).  Measured against the change without them, not against 0: a
# neighbour that slowed label a lifts both (check-asan saw kept -1.09%).
[ -n "$clean" ] || die "no change printed without the disturbed values: $(cat "$TMP/cmp-v")"
holds "$kept - $clean < -8" ||
	die "--keep-disturbed should show the hog's slowdown: kept $kept%, without the disturbed $clean%"
# Leaving the hog's values out must not leave a regression behind.  How much
# of the change goes is the shared box's business (CI saw clean +9.51% against
# kept -17.22% when another job slowed label a): only the verdict is the
# harness's (the sign is the check above).
grep '^  c ' "$TMP/cmp" | grep -q 'regression' &&
	die "compare calls the A/A pair a regression with the hog's values left out: $(cat "$TMP/cmp")"

echo ok
