#!/bin/bash
# THP knobs changed by a run are restored after SIGINT, and after SIGKILL by
# the next mmbench start.
. "$(dirname "$0")/../e2e-lib.sh"
need_root "changes /sys/kernel/mm/transparent_hugepage"
THP=/sys/kernel/mm/transparent_hugepage
[ -w $THP/enabled ] || skip "no THP sysfs here"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
cur() { sed 's/.*\[\(.*\)\].*/\1/' "$1"; }
before=$(cur $THP/enabled)
want=never; [ "$before" = never ] && want=always
mthp=$(ls -d $THP/hugepages-64kB 2>/dev/null || true)
mbefore=; [ -n "$mthp" ] && mbefore=$(cur "$mthp/enabled")
mwant=always; [ "$mbefore" = always ] && mwant=never
cat > "$TMP/f.yaml" <<EOC
experiment: restore
iterations: 100
warmup: 0
environment:
  thp: $want
$( [ -n "$mthp" ] && printf '  mthp: { 64K: %s }\n' "$mwant" )
workloads:
  - name: faulty
    params:
      script: $(printf 'slow,%.0s' $(seq 1 100))slow
      state_dir: $TMP
EOC
wait_changed() {
	for _ in $(seq 1 50); do
		[ "$(cur $THP/enabled)" = "$want" ] && return 0
		sleep 0.1
	done
	die "THP was never set to $want"
}

# 1. SIGINT: restored by the run itself
"$MMB" run "$TMP/f.yaml" -q > /dev/null 2>&1 &
pid=$!
BG_PIDS="$BG_PIDS $pid"
wait_changed
[ -z "$mthp" ] || [ "$(cur "$mthp/enabled")" = "$mwant" ] || die "mTHP 64K not set"
kill -INT "$pid"
set +e; wait "$pid"; rc=$?; set -e
[ "$rc" = 1 ] || die "interrupted run should exit 1, got $rc"
[ "$(cur $THP/enabled)" = "$before" ] || die "THP not restored after SIGINT"
[ -z "$mthp" ] || [ "$(cur "$mthp/enabled")" = "$mbefore" ] || die "mTHP not restored after SIGINT"
[ "$(q "SELECT status FROM runs ORDER BY id DESC LIMIT 1")" = interrupted ] || die "not interrupted"
q "SELECT original FROM run_env WHERE key = 'thp.enabled'" | grep -qx "$before" || die "original THP value not recorded"

# 2. SIGKILL: the journal is replayed by the next mmbench start
"$MMB" run "$TMP/f.yaml" -q > /dev/null 2>&1 &
pid=$!
BG_PIDS="$BG_PIDS $pid"
wait_changed
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
[ "$(cur $THP/enabled)" = "$want" ] || die "expected THP still changed after SIGKILL"
"$MMB" restore
[ "$(cur $THP/enabled)" = "$before" ] || die "THP not restored by mmbench restore"
[ -z "$mthp" ] || [ "$(cur "$mthp/enabled")" = "$mbefore" ] || die "mTHP not restored by mmbench restore"
echo "THP $before -> $want -> $before"
