#!/bin/bash
# Progress when stderr is not a terminal (issue 45 item 12; it was silent,
# so a long run in a log or CI looked hung): a plain "progress: ..." line,
# no terminal escapes, the first at once (later ones at most every 30 s);
# -q keeps it quiet.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=${MMBENCH_BUILD:-build}/tests/plugins
cat >"$TMP/s.yaml" <<EOC
experiment: progress
iterations: 3
warmup: 0
workloads:
  - name: spin
    params: { threads: 1, ms: 5 }
EOC
"$MMB" run "$TMP/s.yaml" >"$TMP/out" 2>"$TMP/err" || die "run: $(cat "$TMP/err")"
grep -q '^progress: spin  iteration 1/3' "$TMP/err" || die "no progress line in a pipe: $(cat "$TMP/err")"
! grep -q $'\033' "$TMP/err" || die "terminal escapes in a pipe"
"$MMB" run -q "$TMP/s.yaml" >"$TMP/out" 2>"$TMP/err2" || die "run -q: $(cat "$TMP/err2")"
! grep -q '^progress: ' "$TMP/err2" || die "-q printed progress"
echo ok
