#!/bin/bash
# Issue 42: `mmbench --version > /dev/full` exited 0.  Every way out of
# main() checks that what went to standard output was written (flushed,
# no error, closed), as git does: a full disk or a closed stdout is one
# error and a non-zero exit, for the global options as for the commands.
# A reader that went away (EPIPE) is no error.
. "$(dirname "$0")/../e2e-lib.sh"
[ -w /dev/full ] || skip "no /dev/full"
FIX=$(cd "$(dirname "$0")/../fixtures/compare" && pwd)
"$MMB" -q import --name base "$FIX/aim9-base.csv"
"$MMB" -q import --name new "$FIX/aim9-base.csv"
full() {	# command...: exit non-zero, one "write error on standard output"
	local rc=0
	"$@" > /dev/full 2> "$TMP/err" || rc=$?
	[ $rc != 0 ] || die "$* > /dev/full: exit 0"
	grep -q '^error: write error on standard output' "$TMP/err" ||
		die "$* > /dev/full: exit $rc without the error: $(cat "$TMP/err")"
	rc=0
	"$@" >&- 2> "$TMP/err" || rc=$?
	[ $rc != 0 ] || die "$* >&-: exit 0"
}
full "$MMB" --version
full "$MMB" -V
full "$MMB" --help
full "$MMB" help compare
full "$MMB" list workloads
full "$MMB" compare base new
full "$MMB" export --format csv
# a reader that stops early is not a failure of ours
set +o pipefail
"$MMB" export --format csv | head -c 1 > /dev/null
"$MMB" --version > /dev/null || die "--version to /dev/null failed"
echo ok
