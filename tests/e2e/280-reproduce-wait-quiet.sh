#!/bin/bash
# reproduce takes --wait-quiet, as its own refusal on a busy machine tells
# a user to use (issue 45 item 8; it was an unknown option): with a
# timeout or none, checked as run checks it; refused with --tree (VM
# boots) and with a bad time.  --dry-run runs nothing.
. "$(dirname "$0")/../e2e-lib.sh"
FIX=$(cd "$(dirname "$0")/../fixtures/reports" && pwd)
for w in --wait-quiet --wait-quiet=10m; do
	"$MMB" reproduce --dry-run $w "$FIX/aim9-followup.txt" >"$TMP/out" 2>"$TMP/err" ||
		die "reproduce $w: $(cat "$TMP/err")"
done
rc=0; "$MMB" reproduce --dry-run --wait-quiet=soon "$FIX/aim9-followup.txt" >/dev/null 2>"$TMP/err" || rc=$?
[ $rc = 2 ] && grep -q -- "--wait-quiet=soon" "$TMP/err" || die "a bad time: exit $rc: $(cat "$TMP/err")"
rc=0; "$MMB" reproduce --tree "$TMP" --wait-quiet "$FIX/aim9-followup.txt" >/dev/null 2>"$TMP/err" || rc=$?
[ $rc = 2 ] && grep -q "with --tree the kernels boot in VMs" "$TMP/err" || die "--tree: exit $rc: $(cat "$TMP/err")"
echo ok
