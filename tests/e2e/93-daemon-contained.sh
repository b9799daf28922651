#!/bin/bash
# A plugin whose run() starts a setsid() daemon (a grandchild sleeping 20 s
# that leaves the iteration's process group and holds the result pipe):
#  - with a 3 s timeout, run() waiting for it: the iteration is failed as
#    timed out and ends within the grace period, not after 20 s;
#  - left behind by a successful iteration: killed when the iteration ends;
#  - the harness SIGKILLed meanwhile (cgroup v2 only): the daemon is killed
#    and its cgroup removed by the next start / `mmbench restore`.
# Each case with the cgroup v2 containment (where the machine has it) and
# with the subreaper fallback (MMBENCH_NO_CGROUP=1).  No process of the
# plugin survives.  The 15 s bounds are loose on purpose (a busy machine);
# the old behaviour took 20 s each.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
conf() {	# name timeout script
	cat <<EOC
experiment: $1
iterations: $(($(tr ',' '\n' <<< "$3" | wc -l)))
warmup: 0
timeout: $2
workloads:
  - name: faulty
    params:
      script: $3
      state_dir: $TMP
EOC
}
daemon_pid() {
	for _ in $(seq 1 100); do
		[ -s "$TMP/daemon.pid" ] && { cat "$TMP/daemon.pid"; return; }
		sleep 0.1
	done
	die "the plugin's daemon never started"
}
# gone, or at most a zombie on its way to be reaped
gone() {
	for _ in $(seq 1 50); do
		[ -e "/proc/$1" ] || return 0
		[ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" = Z ] && return 0
		sleep 0.1
	done
	return 1
}
cgroups_left() { find /sys/fs/cgroup -maxdepth 6 -type d -name "mmbench-$1-*" 2>/dev/null | wc -l; }

modes=subreaper
grep -q ' - cgroup2 ' /proc/self/mountinfo && modes="cgroup subreaper"
for mode in $modes; do
	if [ "$mode" = subreaper ]; then export MMBENCH_NO_CGROUP=1; else unset MMBENCH_NO_CGROUP; fi
	rm -f "$MMBENCH_DB" "$TMP/faulty.counter" "$TMP/daemon.pid"

	# 1. the timeout, run() waiting for its daemon
	conf timeout 3s daemon-wait > "$TMP/t.yaml"
	t0=$(date +%s)
	set +e; "$MMB" run "$TMP/t.yaml" -q > /dev/null 2> "$TMP/err"; rc=$?; set -e
	secs=$(( $(date +%s) - t0 ))
	cat "$TMP/err"
	d=$(daemon_pid)
	[ "$rc" = 1 ] || die "$mode: a timed-out iteration should make the run exit 1, got $rc"
	q "SELECT reason FROM iterations" | grep -q "^timed out after 3s" || die "$mode: $(q "SELECT status, reason FROM iterations")"
	[ "$secs" -lt 15 ] || die "$mode: the timed-out iteration took ${secs}s (the daemon held it)"
	gone "$d" || die "$mode: the daemon (pid $d) outlived the timed-out iteration"
	echo "$mode: timeout case took ${secs}s, daemon $d gone"

	# 2. a daemon left behind by a successful iteration
	rm -f "$MMBENCH_DB" "$TMP/faulty.counter" "$TMP/daemon.pid"
	conf leftover 60s daemon,ok > "$TMP/l.yaml"
	t0=$(date +%s)
	"$MMB" run "$TMP/l.yaml" -q > /dev/null 2> "$TMP/err" || { cat "$TMP/err"; die "$mode: the run failed"; }
	secs=$(( $(date +%s) - t0 ))
	d=$(daemon_pid)
	[ "$(q "SELECT group_concat(status) FROM iterations")" = ok,ok ] || die "$mode: $(q "SELECT status, reason FROM iterations")"
	[ "$secs" -lt 15 ] || die "$mode: the run took ${secs}s (waited for the daemon)"
	gone "$d" || die "$mode: the daemon (pid $d) outlived its iteration"
	echo "$mode: leftover case took ${secs}s, daemon $d gone"
done

# 3. the harness SIGKILLed while its iteration's daemon runs
if [ "$modes" != subreaper ] && [ "$(id -u)" = 0 ]; then
	unset MMBENCH_NO_CGROUP
	rm -f "$MMBENCH_DB" "$TMP/faulty.counter" "$TMP/daemon.pid"
	conf killed 60s daemon-wait > "$TMP/k.yaml"
	"$MMB" run "$TMP/k.yaml" -q > /dev/null 2>&1 &
	pid=$!
	BG_PIDS=$pid
	d=$(daemon_pid)
	[ "$(cgroups_left "$pid")" = 1 ] || die "no iteration cgroup for pid $pid"
	kill -9 "$pid"
	wait "$pid" 2>/dev/null || true
	BG_PIDS=
	sleep 0.5
	[ -e "/proc/$d" ] || die "the daemon died with the harness (the test needs it to survive)"
	grep -q "	C	.*/mmbench-$pid-" "$MMBENCH_STATE/journal" || die "the iteration cgroup is not journaled"
	"$MMB" restore
	gone "$d" || die "the daemon (pid $d) survived mmbench restore"
	[ "$(cgroups_left "$pid")" = 0 ] || die "the iteration cgroup is still there"
	[ ! -s "$MMBENCH_STATE/journal" ] || die "the journal is not empty"
	echo "killed harness: daemon $d killed and its cgroup removed by mmbench restore"
fi
echo ok
