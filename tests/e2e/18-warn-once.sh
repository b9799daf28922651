#!/bin/bash
# A plugin warning that repeats in a run is printed once, in full, and the
# end of the run says how many times it came ("(repeated N times)"):
# messages that differ only in their numbers are one kind.  Info lines and
# a warning that came once get no count line.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
[ -f "$MMBENCH_PLUGIN_PATH/chatty.so" ] || die "chatty.so not built"
cat >"$TMP/c.yaml" <<EOC
experiment: chatty
iterations: 3
warmup: 1
workloads:
  - name: chatty
    params:
      repeats: 12
EOC
set +e
"$MMB" run "$TMP/c.yaml" >"$TMP/out" 2>"$TMP/err"
rc=$?
set -e
cat "$TMP/err"
[ $rc = 0 ] || die "run exited $rc"
n() { grep -cF -- "$1" "$TMP/err" || true; }
want_once() {	# text
	[ "$(n "$1")" = 1 ] || die "expected one line with '$1', got $(n "$1")"
}
# 4 iterations (1 warm-up + 3), 12 changing copies in each
first='warning: chatty: 32768 pages touched but 2048 minor faults measured (90% off)'
[ "$(grep -c 'pages touched' "$TMP/err")" = 2 ] ||
	die "expected the changing warning once plus its count line"
[ "$(grep -m1 'pages touched' "$TMP/err")" = "$first" ] || die "the first one is not printed in full"
[ "$(grep 'pages touched' "$TMP/err" | tail -n 1)" = "$first (repeated 48 times)" ] ||
	die "no count line for the changing warning"
want_once 'warning: chatty: setup: the same words every time (repeated 4 times)'
want_once 'warning: chatty: teardown: an error-level line (repeated 4 times)'
[ "$(n 'setup: the same words')" = 2 ] || die "the unchanging warning is printed more than once"
# the count lines come last, after everything the run printed
tail -n 3 "$TMP/err" | grep -c 'repeated' | grep -qx 3 || die "the count lines are not at the end"
# info is not counted (and still printed, once per iteration, without -q)
[ "$(n 'an info line is not counted')" = 4 ] || die "info lines changed"
grep -q 'info line.*repeated' "$TMP/err" && die "an info line was counted"

# a second run starts counting afresh
"$MMB" run "$TMP/c.yaml" -q >"$TMP/out" 2>"$TMP/err2" || die "second run failed"
grep -qxF "$first (repeated 48 times)" "$TMP/err2" || die "second run: $(cat "$TMP/err2")"
echo ok
