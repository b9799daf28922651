#!/bin/bash
# e2e: `reproduce --keep-disturbed` (issue 43): on a busy machine every
# iteration is disturbed and, without it, each run ends with exit 1 and
# no comparison at all.  With it the runs are recorded as they are, and
# the comparison pools the disturbed iterations and says so.  CPU hogs on
# every CPU make the machine busy; the interference limits are active
# (the suite otherwise records without judging).  Nothing asserts on time.
. "$(dirname "$0")/../e2e-lib.sh"
[ -x "$MMB" ] || die "$MMB not built"
export MMBENCH_STATE=${MMBENCH_STATE:-$TMP/state}
export MMBENCH_INTERFERENCE=
hogs=()
for _ in $(seq 1 $(($(nproc) + 1))); do
	nice -n 19 sh -c 'while :; do :; done' &
	hogs+=($!)
done
trap 'kill "${hogs[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$TMP"' EXIT

aim9_report "$TMP/report.txt" </dev/null

set +e
"$MMB" -q reproduce --runs 2 --name aaaaaaaaaa --db "$MMBENCH_DB" "$TMP/report.txt" >"$TMP/o0" 2>"$TMP/e0"
rc=$?
set -e
[ $rc = 1 ] || die "busy run without --keep-disturbed: exit $rc, want 1"
grep -q "was disturbed" "$TMP/e0" || die "no disturbed sentence: $(cat "$TMP/e0")"
grep -q "column bbbbbbbbbb" "$TMP/o0" && die "a comparison without --keep-disturbed"

for c in aaaaaaaaaa bbbbbbbbbb; do
	"$MMB" -q reproduce --keep-disturbed --runs 2 --name $c --db "$MMBENCH_DB" "$TMP/report.txt" \
		>"$TMP/o" 2>"$TMP/e" || die "--keep-disturbed run of $c failed: $(cat "$TMP/e")"
done
grep -Eq '^suspect bbbbbbbbbb: report: -5.0%, here: [+-][0-9.]+%' "$TMP/o" ||
	die "no verdict with --keep-disturbed: $(cat "$TMP/o")"
grep -qi "disturbed" "$TMP/o" || die "the comparison does not say it pooled disturbed iterations: $(cat "$TMP/o")"
echo ok
