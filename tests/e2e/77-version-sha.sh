#!/bin/bash
# e2e: the binary and the runs it records name the commit it was built
# from.  The sha lives in one object that the Makefile rebuilds whenever
# HEAD moves, so an incremental build after a commit cannot keep (or mix in)
# the previous commit's sha.
. "$(dirname "$0")/../e2e-lib.sh"
src=$(cd "$(dirname "$0")/../.." && pwd)
head=$(git -C "$src" rev-parse --short=12 HEAD 2>/dev/null) || skip "not a git checkout"
# make check builds first: after a commit that make must have rebuilt the sha
"$MMB" --version | grep -qx "mmbench [0-9.]* ($head)" || die "--version: $("$MMB" --version), HEAD $head"
cat >"$TMP/e.yaml" <<'EOC'
experiment: sha
iterations: 1
warmup: 0
workloads:
  - name: good_minimal
EOC
export MMBENCH_PLUGIN_PATH=${MMBENCH_BUILD:-build}/tests/plugins
run "$TMP/e.yaml"
[ $rc = 0 ] || die "run: $(cat "$TMP/err")"
[ "$(q "select git_sha from runs")" = "$head" ] || die "the run records $(q "select git_sha from runs"), HEAD $head"
echo ok
