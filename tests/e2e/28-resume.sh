#!/bin/bash
# run --resume after a kill -9 mid-run: the same run id goes on with only
# the missing iterations (numbers contiguous, none twice, the total as
# planned), the rows from before the kill untouched, status complete,
# compare works on it; as root the experiment's THP setting is applied
# again while it resumes.  Refused: a complete run, an unknown id, options
# beside --resume, a CONFIG whose text differs, another kernel or machine.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
THP=/sys/kernel/mm/transparent_hugepage
cur() { sed 's/.*\[\(.*\)\].*/\1/' "$1"; }
thp=
if [ "$(id -u)" = 0 ] && [ -w $THP/enabled ]; then
	thp=1
	before=$(cur $THP/enabled)
	want=never; [ "$before" = never ] && want=always
	# a failing test must not leave the machine changed
	trap '"$MMB" restore >/dev/null 2>&1 || true; cleanup' EXIT
else
	echo "not root or no THP sysfs: the environment's second application is not checked"
fi
N=30
cat > "$TMP/r.yaml" <<EOC
experiment: resume
iterations: $N
warmup: 1
$( [ -n "$thp" ] && printf 'environment:\n  thp: %s\n' "$want" )
workloads:
  - name: spin
    params:
      threads: [1, 2]
      ms: 20
EOC
measured() { q "SELECT count(*) FROM iterations WHERE run_id = $1 AND warmup = 0" 2>/dev/null || echo 0; }
alive() { case $(ps -o stat= -p "$1" 2>/dev/null) in ''|Z*) return 1 ;; esac; }
# run in the background, kill -9 once run $1 has $2 measured iterations in the DB
start_and_kill() {
	local id=$1 k=$2
	shift 2
	"$MMB" run "$@" -q > /dev/null 2> "$TMP/bg.err" &
	pid=$!
	BG_PIDS="$BG_PIDS $pid"
	while alive "$pid" && [ "$(measured "$id")" -lt "$k" ]; do sleep 0.05; done
	alive "$pid" || { cat "$TMP/bg.err"; die "run $id ended before it could be killed"; }
	kill -9 "$pid"
	wait "$pid" 2>/dev/null || true
	# its iteration child dies with it (PDEATHSIG)
	while pgrep -f "$TMP/r.yaml" > /dev/null; do sleep 0.05; done
	[ "$(q "SELECT status FROM runs WHERE id = $id")" = running ] ||
		die "run $id: the killed run should still say running"
}
resume() {	# sets rc, $TMP/out, $TMP/err
	set +e
	"$MMB" run --resume "$@" -q > "$TMP/out" 2> "$TMP/err"
	rc=$?
	set -e
}
# per variant: measured rows, distinct numbers, first, last
numbers() {
	q "SELECT variant, count(*), count(DISTINCT iteration), min(iteration), max(iteration)
	   FROM iterations WHERE run_id = $1 AND warmup = 0 GROUP BY variant ORDER BY variant"
}
full="threads=1|$N|$N|1|$N
threads=2|$N|$N|1|$N"

# 1. killed after k iterations, resumed into the same id
start_and_kill 1 3 "$TMP/r.yaml" --name base
k=$(measured 1)
q "SELECT id, workload, variant, iteration, warmup, status FROM iterations ORDER BY id" > "$TMP/before"
[ "$k" -lt "$N" ] || die "the kill came after the first variant ($k iterations)"
"$MMB" run --resume 1 -q > "$TMP/out" 2> "$TMP/err" &
rpid=$!
BG_PIDS="$BG_PIDS $rpid"
if [ -n "$thp" ]; then
	# once the resume has recorded an iteration, the experiment's THP is set again
	while alive "$rpid" && [ "$(measured 1)" -le "$k" ]; do sleep 0.05; done
	alive "$rpid" || die "the resume ended before its environment could be looked at"
	[ "$(cur $THP/enabled)" = "$want" ] || die "THP is $(cur $THP/enabled) while resuming, not $want"
fi
wait "$rpid" || { cat "$TMP/err"; die "run --resume 1 failed"; }
[ "$(q "SELECT count(*) FROM runs")" = 1 ] || die "resume made a new run"
[ "$(q "SELECT status FROM runs WHERE id = 1")" = complete ] || die "run 1 not complete"
[ "$(numbers 1)" = "$full" ] || die "measured iterations of run 1: $(numbers 1)"
[ "$(measured 1)" = $((2 * N)) ] || die "run 1 has $(measured 1) measured iterations, planned $((2 * N))"
# the variant the kill cut short had its warm-up again, numbered on; the other one once
[ "$(q "SELECT group_concat(iteration) FROM (SELECT iteration FROM iterations
	WHERE run_id = 1 AND warmup = 1 AND variant = 'threads=1' ORDER BY id)")" = "-1,-2" ] ||
	die "warm-ups of the resumed variant: $(q "SELECT iteration FROM iterations WHERE warmup = 1")"
[ "$(q "SELECT count(*) FROM iterations WHERE run_id = 1 AND warmup = 1 AND variant = 'threads=2'")" = 1 ] ||
	die "the untouched variant's warm-up"
q "SELECT id, workload, variant, iteration, warmup, status FROM iterations ORDER BY id" > "$TMP/after"
head -n "$(wc -l < "$TMP/before")" "$TMP/after" | cmp -s - "$TMP/before" ||
	die "the iterations recorded before the kill changed"
[ "$(q "SELECT count(*) FROM samples WHERE run_id = 1")" = \
  "$(q "SELECT count(*) FROM iterations WHERE run_id = 1 AND warmup = 0 AND status = 'ok'")" ] ||
	die "samples and ok iterations of run 1 differ"
grep -q "run 1 (complete)" "$TMP/out" || die "no summary line: $(cat "$TMP/out")"
[ -z "$thp" ] || [ "$(cur $THP/enabled)" = "$before" ] || die "THP left at $(cur $THP/enabled) after the resume, not $before"

# 2. refusals
resume 1
[ $rc = 2 ] && grep -q "^error: run 1 is complete: nothing to resume$" "$TMP/err" ||
	die "resume of a complete run: rc $rc, $(cat "$TMP/err")"
resume 99
[ $rc = 2 ] && grep -q "^error: no run 99 in " "$TMP/err" || die "unknown run: rc $rc, $(cat "$TMP/err")"
start_and_kill 2 2 "$TMP/r.yaml" --name pinned --set pin_cpu=0
resume 2 --iterations 5
[ $rc = 2 ] && grep -q "^error: --resume goes on with run 2's own options" "$TMP/err" ||
	die "--iterations with --resume: rc $rc, $(cat "$TMP/err")"
cp "$TMP/r.yaml" "$TMP/edited.yaml"
echo "# edited" >> "$TMP/edited.yaml"
resume 2 "$TMP/edited.yaml"
[ $rc = 2 ] && grep -qF "error: $TMP/edited.yaml is not the experiment run 2 recorded" "$TMP/err" ||
	die "a different CONFIG text: rc $rc, $(cat "$TMP/err")"
release=$(q "SELECT release FROM runs WHERE id = 2")
q "UPDATE runs SET release = 'fake-0.1' WHERE id = 2"
resume 2 "$TMP/r.yaml"
[ $rc = 1 ] && grep -qF "error: run 2 was measured on kernel fake-0.1 (config" "$TMP/err" &&
	grep -qF "this is $release (config" "$TMP/err" || die "another kernel: rc $rc, $(cat "$TMP/err")"
[ "$(q "SELECT status FROM runs WHERE id = 2")" = interrupted ] || die "a refusal changed run 2"
q "UPDATE runs SET release = '$release' WHERE id = 2"
q "UPDATE machines SET ncpus = ncpus + 1"
resume 2 "$TMP/r.yaml"
[ $rc = 1 ] && grep -q "resume it on its own machine$" "$TMP/err" ||
	die "another machine: rc $rc, $(cat "$TMP/err")"
# MemTotal a little off (another boot) is still the machine
q "UPDATE machines SET ncpus = ncpus - 1, mem_bytes = mem_bytes + mem_bytes / 100"

# 3. with its CONFIG (the --set it ran with comes from the run's options)
resume 2 "$TMP/r.yaml"
[ $rc = 0 ] || { cat "$TMP/err"; die "run --resume 2 CONFIG failed"; }
[ "$(q "SELECT status FROM runs WHERE id = 2")" = complete ] || die "run 2 not complete"
[ "$(numbers 2)" = "$full" ] || die "measured iterations of run 2: $(numbers 2)"
[ "$(q "SELECT value FROM run_env WHERE run_id = 2 AND key = 'pin_cpu'")" = 0 ] ||
	die "run 2's --set pin_cpu=0 was lost"
"$MMB" compare base pinned > "$TMP/cmp" || die "compare of the resumed runs failed"
grep -q "threads=2" "$TMP/cmp" || die "compare output: $(cat "$TMP/cmp")"
echo "killed after $k iterations; resumed to $(measured 1) in run 1, contiguous, no duplicates"
