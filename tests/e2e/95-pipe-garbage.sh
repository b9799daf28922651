#!/bin/bash
# A plugin that writes bytes that are not mmbench messages into the result
# pipe: the iteration fails saying so (how many bytes, how they start) --
# not "exit() called?", which it did not do -- and the run goes on.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
cat > "$TMP/g.yaml" <<EOC
experiment: pipegarbage
iterations: 3
warmup: 0
workloads:
  - name: faulty
    params:
      script: ok,garbage,ok
      state_dir: $TMP
EOC
set +e
"$MMB" run "$TMP/g.yaml" -q > /dev/null 2> "$TMP/err"
rc=$?
set -e
cat "$TMP/err"
[ "$rc" = 1 ] || die "a failed iteration should make the run exit 1, got $rc"
reason=$(q "SELECT status || '|' || reason FROM iterations WHERE iteration = 2")
echo "$reason" | grep -q '^failed|plugin wrote [0-9]* bytes to the result pipe that are not mmbench messages (starting "garbage!\\n' ||
	die "iteration 2: $reason"
! echo "$reason" | grep -q "exit() called" || die "still blamed on exit(): $reason"
[ "$(q "SELECT group_concat(status) FROM iterations")" = ok,failed,ok ] || die "the run did not go on"
[ "$(q "SELECT count(*) FROM samples WHERE iteration = 2")" = 0 ] || die "samples of the garbled iteration kept"
echo ok
