#!/bin/bash
# A typo gets the name it meant (issue 45 item 12): a command ('compre'
# printed a 20-line list of every command) and a long option
# ('--keep-disturbd') are answered with "did you mean ...?", exit 2; a
# name close to nothing still lists the commands.
set -u
MMB=$MMBENCH_BUILD/mmbench
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fail=0
"$MMB" compre a b >/dev/null 2>"$W/err"; rc=$?
[ $rc = 2 ] || { echo "FAIL: compre: exit $rc"; fail=1; }
grep -qx "error: 'compre' is not an mmbench command; did you mean 'compare'?" "$W/err" &&
	[ "$(wc -l < "$W/err")" = 1 ] || { echo "FAIL: compre:"; cat "$W/err"; fail=1; }
"$MMB" compare --db "$W/none.db" --keep-disturbd a b >/dev/null 2>"$W/err"; rc=$?
[ $rc = 2 ] || { echo "FAIL: --keep-disturbd: exit $rc"; fail=1; }
grep -q "unknown option '--keep-disturbd'; did you mean '--keep-disturbed'?" "$W/err" ||
	{ echo "FAIL: --keep-disturbd:"; cat "$W/err"; fail=1; }
"$MMB" report --out "$W/r" --formt lkp a b >/dev/null 2>"$W/err"
grep -q "did you mean '--format'?" "$W/err" || { echo "FAIL: --formt=lkp:"; cat "$W/err"; fail=1; }
"$MMB" zzzzzzzz >/dev/null 2>"$W/err"
grep -q "commands are:" "$W/err" && grep -q '^  compare$' "$W/err" ||
	{ echo "FAIL: an unknown name close to nothing:"; cat "$W/err"; fail=1; }
exit $fail
