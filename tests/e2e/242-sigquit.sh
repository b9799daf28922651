#!/bin/bash
# Issue 42: SIGQUIT (Ctrl-\) killed a run without restoring its settings
# (its default action).  It is handled like SIGTERM and SIGHUP (e2e 97): the in-flight
# iteration is dropped, the finished ones are kept, the settings the run
# changed are put back, the run is marked interrupted and the exit is 1
# with one error naming the signal.
. "$(dirname "$0")/../e2e-lib.sh"
need_root "changes /sys/kernel/mm/transparent_hugepage/defrag"
THP=/sys/kernel/mm/transparent_hugepage
[ -w $THP/defrag ] || skip "no THP sysfs here"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
cur() { sed 's/.*\[\(.*\)\].*/\1/' "$1"; }
before=$(cur $THP/defrag)
want=never; [ "$before" = never ] && want=defer
cat > "$TMP/h.yaml" <<EOC
experiment: quit
iterations: 100
warmup: 0
environment:
  thp_defrag: $want
workloads:
  - name: faulty
    params:
      script: $(printf 'slow,%.0s' $(seq 1 100))slow
      state_dir: $TMP
EOC
# job control: a background job keeps SIGQUIT's default action, as a
# terminal's foreground job has (a script's & would ignore it)
set -m
"$MMB" run "$TMP/h.yaml" -q > "$TMP/out" 2> "$TMP/err" &
pid=$!
set +m
BG_PIDS=$pid
# wait until the knob is changed and one iteration is committed
for _ in $(seq 1 300); do
	[ "$(cur $THP/defrag)" = "$want" ] &&
		[ "$(q "SELECT count(*) FROM iterations" 2>/dev/null || echo 0)" -ge 1 ] && break
	sleep 0.1
done
[ "$(cur $THP/defrag)" = "$want" ] || die "defrag was never set to $want"
kill -QUIT "$pid"
set +e; wait "$pid"; rc=$?; set -e
BG_PIDS=
cat "$TMP/err"
[ "$rc" = 1 ] || die "SIGQUIT should end the run with exit 1, got $rc"
[ "$(cur $THP/defrag)" = "$before" ] || die "defrag not restored after SIGQUIT: $(cur $THP/defrag)"
[ "$(q "SELECT status FROM runs")" = interrupted ] || die "run left as $(q "SELECT status FROM runs")"
[ "$(grep -c '^error:' "$TMP/err")" = 1 ] || die "expected one error line"
grep -q "^error: interrupted by signal 3;" "$TMP/err" || die "the error does not name the signal"
[ "$(q "SELECT count(*) FROM iterations WHERE status = 'ok'")" -ge 1 ] || die "finished iterations lost"
echo ok
