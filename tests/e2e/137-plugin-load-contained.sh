#!/bin/bash
# Issue 27 item 10: loading a plugin runs its code (constructors, the entry
# point).  A truncated .so killed `list workloads` and `run` with SIGBUS
# (135) and no message, a constructor's segfault with 139, an endless
# loop hung them.  Each plugin is loaded first in a child with a time
# limit: one error naming the plugin, the other plugins still listed.
# The harness itself never maps a plugin (the loader child sends the
# descriptor; each iteration maps it in its own contained child), and a
# constructor that starts a setsid() daemon leaves nothing behind.
. "$(dirname "$0")/../e2e-lib.sh"
P=$TMP/plugins
mkdir -p "$P"
cp "$MMBENCH_BUILD/tests/plugins/ctor_trap.so" "$MMBENCH_BUILD/tests/plugins/good_minimal.so" "$P/"
export MMBENCH_PLUGIN_PATH=$P
printf 'experiment: x\niterations: 1\nwarmup: 0\nworkloads:\n  - name: ctor_trap\n' > "$TMP/c.yaml"
check() {	# WHAT MESSAGE CMD...
	local what=$1 msg=$2 rc=0
	shift 2
	"$@" > "$TMP/out" 2> "$TMP/err" || rc=$?
	[ $rc -lt 128 ] || die "$what: killed by signal $((rc - 128)): $(cat "$TMP/err")"
	grep -qF "$msg" "$TMP/err" || die "$what: no '$msg' in: $(cat "$TMP/err")"
}
MMB_TEST_CTOR=segv check "list, segv" "plugin ctor_trap: crashed while loading (SIGSEGV" "$MMB" list workloads
grep -q '^good_minimal' "$TMP/out" || die "the other plugins are not listed: $(cat "$TMP/out")"
MMB_TEST_CTOR=segv check "run, segv" "crashed while loading" "$MMB" run "$TMP/c.yaml" -q
[ "$(q "SELECT count(*) FROM runs" 2> /dev/null || echo 0)" = 0 ] || die "a run was recorded"
MMBENCH_HOOK_TIMEOUT_MS=1000 MMB_TEST_CTOR=hang check "list, hang" "did not answer in 1 s while loading" \
	"$MMB" list workloads
# a truncated file: the loader maps past its end
sz=$(stat -c %s "$P/ctor_trap.so")
truncate -s $((sz / 2)) "$P/ctor_trap.so"
check "list, truncated" "ctor_trap" "$MMB" list workloads
grep -q '^good_minimal' "$TMP/out" || die "truncated: the other plugins are not listed"
# who runs the constructor: never the harness's own process
alive() {	# the daemons of $TMP/pids still running
	awk '$1 == "daemon" { print $2 }' "$TMP/pids" 2> /dev/null | while read -r d; do
		kill -0 "$d" 2> /dev/null && echo "$d"
	done
}
gone() {	# WHAT: every daemon is dead within 5 s of the command's end
	for _ in $(seq 50); do
		[ -z "$(alive)" ] && return
		sleep 0.1
	done
	die "$1: a constructor's daemon is still running: $(alive)"
}
cp "$MMBENCH_BUILD/tests/plugins/ctor_trap.so" "$P/"
rm -f "$TMP/pids"
MMB_TEST_CTOR=daemon MMB_TEST_CTOR_FILE=$TMP/pids "$MMB" list workloads > "$TMP/out" 2> "$TMP/err" &
mmb=$!
wait $mmb || die "list with a daemon-starting constructor failed: $(cat "$TMP/err")"
grep -q '^ctor_trap' "$TMP/out" || die "ctor_trap not listed: $(cat "$TMP/out")"
grep -q "^ctor $mmb\$" "$TMP/pids" && die "the harness ran the plugin's constructor itself"
grep -q '^daemon ' "$TMP/pids" || die "the test plugin started no daemon: $(cat "$TMP/pids")"
gone "list workloads"
rm -f "$TMP/pids"
MMB_TEST_CTOR=daemon MMB_TEST_CTOR_FILE=$TMP/pids "$MMB" run "$TMP/c.yaml" -q > "$TMP/out" 2> "$TMP/err" &
mmb=$!
wait $mmb || die "run with a daemon-starting constructor failed: $(cat "$TMP/err")"
grep -q "^ctor $mmb\$" "$TMP/pids" && die "run: the harness ran the plugin's constructor itself"
[ "$(grep -c '^ctor ' "$TMP/pids")" -ge 2 ] || die "run: the iteration did not map the plugin: $(cat "$TMP/pids")"
gone "run"
[ "$(q "SELECT (SELECT count(*) FROM sample_values) + (SELECT coalesce(sum(n), 0) FROM sample_blocks)")" -ge 1 ] ||
	die "run: no sample recorded"
echo ok
