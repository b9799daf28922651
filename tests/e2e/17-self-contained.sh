#!/bin/bash
# The project is self-contained: no tracked file (code, test, fuzz seed,
# doc, comment) reads or cites the reading folder that sits beside the
# repository in development, and the unit tests that read fixtures pass in
# a copy of the tree with nothing beside it and no environment pointing
# back.
. "$(dirname "$0")/../e2e-lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
# Built from pieces so this file does not match its own pattern; the last
# alternative catches the same documents cited by name without the path.
up='\.\.' dir='sha''red'
pat="$up/$dir|$dir/(se""eds|refer""ence)|refer""ence (workloads|report-formats|stats-vectors|kernel-vm|style)\.(md|json)"
cd "$top"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -z >"$TMP/files"
else
	find . -path ./.git -prune -o -type f -print0 >"$TMP/files"
fi
[ -s "$TMP/files" ] || die "no files listed in $top"
if xargs -0 grep -nIE -- "$pat" <"$TMP/files" >"$TMP/hits"; then
	cat "$TMP/hits"
	die "$(wc -l <"$TMP/hits") line(s) cite a path outside the repository"
fi
# the same over whatever is in the tree but not tracked yet (a new file
# must not bring the path in either); build output is not ours
grep -rnIE --exclude-dir=.git --exclude-dir='build*' -- "$pat" . >"$TMP/hits" && {
	cat "$TMP/hits"; die "untracked files cite a path outside the repository"; }

# the fixture-reading unit tests, in a copy of the tree alone in a folder
ub=$MMBENCH_BUILD/tests/unit
for t in test_lkpreport test_stats; do
	[ -x "$ub/$t" ] || skip "$ub/$t not built (make check-unit builds it)"
done
mkdir -p "$TMP/alone/mmbench"
xargs -0 cp --parents -t "$TMP/alone/mmbench" <"$TMP/files"
cd "$TMP/alone/mmbench"
for t in test_lkpreport test_stats; do
	env -u MMBENCH_SRC -u MMBENCH_SHARED "$ub/$t" >"$TMP/$t.log" 2>&1 ||
		{ tail -n 30 "$TMP/$t.log"; die "$t fails in a lone copy of the tree"; }
done
echo ok
