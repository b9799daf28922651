#!/bin/bash
# A busy machine (issue 28): CPU hogs beside a run mark every iteration
# disturbed, and run, compare, plot and report each exit 1 with the one
# sentence naming the row and what to do (instead of "0 (3 disturbed)",
# "wrote 0 plots" and a report of zeros).  `run --wait-quiet=T` gives up
# after T with the reason and records nothing while the hogs run, and runs
# once they stop.  The interference limits are active here (the suite
# otherwise records without judging); wait-quiet's experiment allows 90%
# foreign CPU, so a shared test machine counts as quiet and only the hogs
# (every CPU) do not.  Nothing asserts on elapsed time.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_INTERFERENCE=
ncpu=$(nproc)
# others' load before the hogs: on a machine already busy (a stress-ng
# --cpu N beside the suite) no run can be calm, and wait-quiet never starts
busy_before=$(busy_share)
hogs=()
start_hogs() {
	for _ in $(seq 1 $((ncpu + 1))); do
		nice -n 19 sh -c 'while :; do :; done' &
		hogs+=($!)
	done
}
stop_hogs() {
	[ ${#hogs[@]} = 0 ] || kill "${hogs[@]}" 2>/dev/null || true
	wait "${hogs[@]}" 2>/dev/null || true
	hogs=()
}
trap 'stop_hogs; rm -rf "$TMP"' EXIT

cat > "$TMP/busy.yaml" <<EOC
experiment: busy
iterations: 3
warmup: 0
workloads:
  - name: skeleton
    params:
      size: 16M
      passes: 4
EOC
sed 's/^experiment: busy/experiment: quiet-or-not\ninterference:\n  foreign_cpu: 0.9\n  steal: 0.9/' \
	"$TMP/busy.yaml" > "$TMP/lenient.yaml"

start_hogs
set +e
"$MMB" run "$TMP/busy.yaml" --name hogged > "$TMP/out" 2> "$TMP/err"; rc=$?
set -e
[ $rc = 1 ] || { cat "$TMP/err"; die "run beside hogs: exit $rc, expected 1"; }
grep -q "error: run [0-9]*: every iteration of skeleton .* was disturbed (3 values left out" "$TMP/err" ||
	die "run: no sentence: $(cat "$TMP/err")"
grep -q -- "--wait-quiet" "$TMP/err" && grep -q -- "--keep-disturbed" "$TMP/err" &&
	grep -q "interference:" "$TMP/err" || die "run: the options are not named: $(cat "$TMP/err")"
# the pre-flight check said so before the first iteration
pf=$(grep -n "warning: pre-flight: others use [0-9]*% of the CPUs now" "$TMP/err" | cut -d: -f1 | head -1)
first=$(grep -n "iteration [0-9]* disturbed\|was disturbed" "$TMP/err" | cut -d: -f1 | head -1)
[ -n "$pf" ] && [ -n "$first" ] && [ "$pf" -lt "$first" ] || die "no pre-flight warning first: $(cat "$TMP/err")"
# DAMON is recorded with the run where the machine has it
if [ "$(cat /sys/kernel/mm/damon/admin/kdamonds/nr_kdamonds 2>/dev/null || echo 0)" -gt 0 ]; then
	[ "$(q "SELECT count(*) FROM run_env WHERE key = 'damon.kdamond.0.state'")" = 1 ] ||
		die "DAMON's kdamond 0 not recorded"
	if [ "$(cat /sys/kernel/mm/damon/admin/kdamonds/0/state)" = on ]; then
		grep -q "warning: pre-flight: DAMON kdamond 0 is on" "$TMP/err" || die "DAMON not warned about"
	fi
fi

# --wait-quiet gives up while the hogs run, and records nothing
n0=$(q "SELECT count(*) FROM runs")
set +e
"$MMB" run "$TMP/lenient.yaml" --name waited --wait-quiet=3s > "$TMP/out" 2> "$TMP/err"; rc=$?
set -e
[ $rc = 1 ] || die "--wait-quiet=3s beside hogs: exit $rc, expected 1"
grep -q "error: the machine did not become quiet in 3 s: others used [0-9]*% of our CPUs" "$TMP/err" ||
	die "wait-quiet: $(cat "$TMP/err")"
[ "$(q "SELECT count(*) FROM runs")" = "$n0" ] || die "a run that never started was recorded"
set +e
"$MMB" run "$TMP/lenient.yaml" --wait-quiet=banana > /dev/null 2> "$TMP/err"; rc=$?
set -e
[ $rc = 2 ] && grep -q "error: --wait-quiet=banana" "$TMP/err" || die "bad TIMEOUT: exit $rc"
stop_hogs

[ "$busy_before" -le 60 ] ||
	skip "the machine was busy before the hogs (${busy_before}% of the CPUs in use by others): the refusals were checked; a calm run and wait-quiet's start cannot be"

# a clean label to compare the hogged one with
"$MMB" -q run "$TMP/lenient.yaml" --name calm > /dev/null 2>&1 || die "calm run failed"
for cmd in "compare hogged calm" "plot --out $TMP/plots hogged calm" "report --out $TMP/rep hogged calm"; do
	# shellcheck disable=SC2086 # the words are the argv
	set +e
	"$MMB" $cmd > "$TMP/out" 2> "$TMP/err"; rc=$?
	set -e
	[ $rc = 1 ] || { cat "$TMP/err"; die "$cmd: exit $rc, expected 1"; }
	grep -q "every iteration of skeleton .* under 'hogged' was disturbed" "$TMP/err" ||
		die "$cmd: no sentence: $(cat "$TMP/err")"
done
[ ! -e "$TMP/rep/report.txt" ] || die "report wrote a report of zeros"

# --wait-quiet runs once the hogs stop
start_hogs
( sleep 2; kill "${hogs[@]}" 2>/dev/null ) &
"$MMB" run "$TMP/lenient.yaml" --name waited --wait-quiet=120s > "$TMP/out" 2> "$TMP/err" ||
	die "wait-quiet after the hogs stopped: $(cat "$TMP/err")"
wait
hogs=()
grep -q "the machine is quiet" "$TMP/err" || die "no 'quiet' line: $(cat "$TMP/err")"
[ "$(q "SELECT count(*) FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE k.label = 'waited' AND r.status = 'complete'")" = 1 ] ||
	die "the waited run is not recorded complete"
echo ok
