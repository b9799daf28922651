#!/bin/bash
# A plugin that segfaults on one iteration and hangs on another: the run
# completes, both are recorded as failed with the reason, the rest kept.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
cat > "$TMP/f.yaml" <<EOC
experiment: faults
iterations: 7
warmup: 0
timeout: 2s
workloads:
  - name: faulty
    params:
      script: ok,segv,ok,hang,abort,exit,ok
      state_dir: $TMP
EOC
set +e
"$MMB" run "$TMP/f.yaml" -q > "$TMP/out" 2> "$TMP/err"
rc=$?
set -e
cat "$TMP/err"
[ "$rc" = 1 ] || die "expected exit 1 when iterations fail, got $rc"
[ "$(q "SELECT status FROM runs")" = complete ] || die "run not complete"
[ "$(q "SELECT count(*) FROM iterations WHERE status = 'ok'")" = 3 ] || die "expected 3 ok iterations"
[ "$(q "SELECT count(*) FROM samples")" = 3 ] || die "expected 3 samples"
q "SELECT reason FROM iterations WHERE iteration = 2" | grep -q "killed by signal 11" || die "segv reason"
q "SELECT reason FROM iterations WHERE iteration = 4" | grep -q "timed out after 2s" || die "hang reason"
q "SELECT reason FROM iterations WHERE iteration = 5" | grep -q "signal 6" || die "abort reason"
q "SELECT reason FROM iterations WHERE iteration = 6" | grep -q "exited with status 3" || die "exit reason"
grep -q "iteration 2 failed: killed by signal 11" "$TMP/err" || die "no warning on stderr"
# no stray processes left behind by the hung child
! pgrep -f "$TMP/f.yaml" >/dev/null || die "children left running"
echo ok
