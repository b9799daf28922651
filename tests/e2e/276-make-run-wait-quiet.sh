#!/bin/bash
# `make run WAIT_QUIET=...` waits for a quiet machine (issue 45 item 9):
# tools/make-run.sh passes WAIT_QUIET to run --wait-quiet as one argument
# (a timeout, or yes for the default), nothing without it; the Makefile's
# run target exports it; README says how.  A stand-in mmbench prints the
# arguments it gets, so nothing is measured here.
set -eu
SRC=$(cd "$(dirname "$0")/../.." && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fail=0
printf '#!/bin/sh\nfor a in "$@"; do printf "%%s\\n" "$a"; done\n' > "$W/mmbench"
chmod +x "$W/mmbench"
args() { (cd "$SRC" && env ${1:+WAIT_QUIET="$1"} sh tools/make-run.sh "$W" | tr '\n' ' '); }
[ "$(args '')" = "run configs/quick.yaml --compare previous " ] ||
	{ echo "FAIL: without WAIT_QUIET: $(args '')"; fail=1; }
[ "$(args 10m)" = "run --wait-quiet=10m configs/quick.yaml --compare previous " ] ||
	{ echo "FAIL: WAIT_QUIET=10m: $(args 10m)"; fail=1; }
[ "$(args yes)" = "run --wait-quiet configs/quick.yaml --compare previous " ] ||
	{ echo "FAIL: WAIT_QUIET=yes: $(args yes)"; fail=1; }
# a value with spaces or shell syntax stays one argument, never run
[ "$(args '1m; touch x')" = "run --wait-quiet=1m; touch x configs/quick.yaml --compare previous " ] &&
	[ ! -e "$SRC/x" ] || { echo "FAIL: WAIT_QUIET with shell syntax: $(args '1m; touch x')"; fail=1; }
grep -q '^run: export WAIT_QUIET' "$SRC/Makefile" || { echo "FAIL: make run does not pass WAIT_QUIET"; fail=1; }
grep -q 'make run WAIT_QUIET=' "$SRC/README.md" || { echo "FAIL: README does not say how to wait"; fail=1; }
exit $fail
