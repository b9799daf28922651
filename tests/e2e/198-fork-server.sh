#!/bin/bash
# The fork server (harness/run/forkserver.h):
# 1. the harness forks one server per run and the server forks every
#    iteration, so the iteration's process is a grandchild of the harness;
# 2. the server killed mid-run costs at most the iteration in flight
#    ("killed by signal 9"): the run warns once and goes on forking
#    directly, every other iteration ok;
# 3. MMBENCH_FORKSERVER=0 forks each iteration from the harness itself;
# 4. on a quiet machine, the served iterations' CPU is the run's own, not
#    foreign load (the server reports it: interference_count_own).
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
cat > "$TMP/s.yaml" <<EOC
experiment: forkserver
iterations: 12
warmup: 0
workloads:
  - name: spin
    params: { threads: 1, ms: 300 }
EOC
# the first child of $1 that has a child itself, and that grandchild: "child grandchild"
with_grandchild() {
	for k in $(pgrep -P "$1" || true); do
		g=$(pgrep -P "$k" | head -1 || true)
		[ -n "$g" ] && { echo "$k $g"; return 0; }
	done
	return 1
}
its() { sqlite3 -batch -noheader "$1" "SELECT count(*) FROM iterations" 2>/dev/null || echo 0; }

# 1 and 2
"$MMB" run --db "$TMP/a.db" --name a "$TMP/s.yaml" -q > "$TMP/out" 2> "$TMP/err" &
mpid=$!
BG_PIDS=$mpid
pair=
for _ in $(seq 1 300); do
	[ "$(its "$TMP/a.db")" -ge 2 ] && pair=$(with_grandchild $mpid) && break
	sleep 0.02
done
[ -n "$pair" ] || die "no iteration process under a child of the harness: $(cat "$TMP/err")"
read -r server iter <<< "$pair"
grep -q spin "/proc/$iter/comm" 2>/dev/null || [ "$(readlink "/proc/$iter/exe")" = "$(readlink "/proc/$mpid/exe")" ] ||
	die "the grandchild $iter is not an iteration child"
kill -9 "$server"
set +e; wait $mpid; rc=$?; set -e
BG_PIDS=
cat "$TMP/err"
[ "$(grep -c "the fork server (pid $server) ended during the run" "$TMP/err")" = 1 ] ||
	die "no single warning about the lost fork server"
[ "$(its "$TMP/a.db")" = 12 ] || die "expected 12 iterations, got $(its "$TMP/a.db")"
failed=$(sqlite3 -batch -noheader "$TMP/a.db" "SELECT count(*) FROM iterations WHERE status != 'ok'")
[ "$failed" -le 1 ] || die "$failed iterations lost to one dead server"
if [ "$failed" = 1 ]; then
	sqlite3 -batch -noheader "$TMP/a.db" "SELECT reason FROM iterations WHERE status != 'ok'" |
		grep -q "killed by signal 9" || die "the in-flight iteration's reason does not say it was killed"
	[ "$rc" -le 1 ] || die "exit $rc"
else
	[ "$rc" = 0 ] || die "exit $rc with every iteration ok"
fi

# 3. switched off: the iteration is the harness's own child
MMBENCH_FORKSERVER=0 "$MMB" run --db "$TMP/b.db" --name b "$TMP/s.yaml" -q > "$TMP/out" 2> "$TMP/err" &
mpid=$!
BG_PIDS=$mpid
direct=
for _ in $(seq 1 300); do
	if [ "$(its "$TMP/b.db")" -ge 1 ]; then
		k=$(pgrep -P $mpid | head -1 || true)
		[ -n "$k" ] && ! pgrep -P "$k" > /dev/null && [ "$(pgrep -P $mpid | wc -l)" = 1 ] && direct=$k && break
	fi
	sleep 0.02
done
wait $mpid || die "the run without a fork server failed: $(cat "$TMP/err")"
BG_PIDS=
[ -n "$direct" ] || die "MMBENCH_FORKSERVER=0: no iteration child directly under the harness"
[ "$(sqlite3 -batch -noheader "$TMP/b.db" "SELECT count(*) FROM iterations WHERE status = 'ok'")" = 12 ] ||
	die "MMBENCH_FORKSERVER=0: not every iteration ok"

# 4. the iterations' CPU is own CPU (a quiet machine only: others' load is foreign too)
b=$(busy_share)
if [ "$b" -le 10 ]; then
	"$MMB" run --db "$TMP/c.db" --name c "$TMP/s.yaml" -q > /dev/null 2> "$TMP/err" ||
		die "run failed: $(cat "$TMP/err")"
	# a spinning thread is 0.3 s of CPU an iteration: counted foreign, the median would be near it
	med=$(sqlite3 -batch -noheader "$TMP/c.db" "SELECT delta FROM monitors WHERE source = 'interference'
		AND key = 'foreign_cpu_s' ORDER BY delta LIMIT 1 OFFSET 6")
	awk -v m="$med" 'BEGIN { exit !(m < 0.15) }' ||
		die "served iterations' CPU counted as foreign: median foreign CPU $med s an iteration"
else
	echo "part 4 skipped: machine busy (${b}% of the CPUs in use by others)"
fi
echo ok
