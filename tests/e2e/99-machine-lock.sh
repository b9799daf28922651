#!/bin/bash
# System settings are the machine's, so the lock is too: a run with another
# state folder (MMBENCH_STATE) is refused while one runs, naming the
# holder's pid and state folder, and changes nothing; and a run cannot
# start over a dead run's unrestored settings kept in another state folder.
. "$(dirname "$0")/../e2e-lib.sh"
need_root "changes /sys/kernel/mm/transparent_hugepage/defrag"
THP=/sys/kernel/mm/transparent_hugepage
[ -w $THP/defrag ] || skip "no THP sysfs here"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
cur() { sed 's/.*\[\(.*\)\].*/\1/' "$1"; }
before=$(cur $THP/defrag)
a=defer; [ "$before" = defer ] && a=madvise
b=never; [ "$before" = never ] && b=always
mkdir -p "$TMP/stA" "$TMP/stB"
# whatever happens, A's journal is replayed before the folders go
trap 'set +e; for p in $BG_PIDS; do kill -9 "$p"; wait "$p"; done 2>/dev/null
      MMBENCH_STATE=$TMP/stA "$MMB" restore >/dev/null 2>&1
      MMBENCH_STATE=$TMP/stB "$MMB" restore >/dev/null 2>&1; cleanup' EXIT
conf() {
	cat <<EOC
experiment: $1
iterations: $2
warmup: 0
environment:
  thp_defrag: $3
workloads:
  - name: faulty
    params:
      script: $(printf 'slow,%.0s' $(seq 1 "$2"))slow
      state_dir: $TMP
EOC
}
conf holder 60 "$a" > "$TMP/a.yaml"
conf second 1 "$b" > "$TMP/b.yaml"
startA() {
	MMBENCH_STATE=$TMP/stA "$MMB" run "$TMP/a.yaml" -q > /dev/null 2>&1 &
	pid=$!
	BG_PIDS=$pid
	for _ in $(seq 1 300); do
		[ "$(cur $THP/defrag)" = "$a" ] && break
		sleep 0.1
	done
	[ "$(cur $THP/defrag)" = "$a" ] || die "run A never set defrag to $a"
}
runB() {
	set +e
	MMBENCH_STATE=$TMP/stB "$MMB" run "$TMP/b.yaml" -q > /dev/null 2> "$TMP/err"
	rc=$?
	set -e
	cat "$TMP/err"
}

# 1. A runs: B, with its own state folder, is refused and changes nothing
startA
runs=$(q "SELECT count(*) FROM runs")
runB
[ "$rc" = 1 ] || die "an overlapping run with another state folder should exit 1, got $rc"
[ "$(grep -c '^error:' "$TMP/err")" = 1 ] || die "expected one error line"
grep -q "another mmbench (pid $pid) is running benchmarks with state folder $TMP/stA" "$TMP/err" ||
	die "the error does not name the holder's pid and state folder"
[ "$(cur $THP/defrag)" = "$a" ] || die "the refused run changed defrag to $(cur $THP/defrag)"
[ "$(q "SELECT count(*) FROM runs")" = "$runs" ] || die "the refused run recorded something"
[ ! -s "$TMP/stB/journal" ] || die "the refused run journaled something"
kill -INT "$pid"
wait "$pid" || true
BG_PIDS=
[ "$(cur $THP/defrag)" = "$before" ] || die "A did not restore defrag"

# 2. A killed: its settings are in stA's journal; B must not start over them
startA
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
BG_PIDS=
[ "$(cur $THP/defrag)" = "$a" ] || die "expected defrag still changed after SIGKILL"
runB
[ "$rc" = 1 ] || die "a run over a dead run's settings should exit 1, got $rc"
grep -q "previous run (pid $pid, state folder $TMP/stA) died without restoring.*MMBENCH_STATE=$TMP/stA mmbench restore" "$TMP/err" ||
	die "the error does not say how to restore"
[ "$(cur $THP/defrag)" = "$a" ] || die "the refused run changed defrag"
MMBENCH_STATE=$TMP/stA "$MMB" restore
[ "$(cur $THP/defrag)" = "$before" ] || die "restore did not put defrag back"
runB
[ "$rc" = 0 ] || die "B should run once the machine is free, got $rc"
[ "$(q "SELECT original FROM run_env r JOIN runs u ON u.id = r.run_id WHERE u.experiment = 'second' AND key = 'thp.defrag'")" = "$before" ] ||
	die "B recorded a wrong original defrag"
[ "$(cur $THP/defrag)" = "$before" ] || die "B did not restore defrag"
echo ok
