#!/bin/bash
# Run end-to-end scripts: exit 0 = pass, 77 = skip (reason printed), else fail.
# Each script gets MMBENCH_BUILD, a private MMBENCH_STATE and a private
# machine lock (MMBENCH_LOCK); scripts run one at a time.  With
# MMBENCH_E2E_LOCK=FILE each script runs under flock FILE, so suites of
# several checkouts on one box (make check beside make check-asan) never
# change the machine's knobs under each other.
set -u
export MMBENCH_BUILD=${MMBENCH_BUILD:-build}
case $MMBENCH_BUILD in /*) ;; *) MMBENCH_BUILD=$PWD/$MMBENCH_BUILD ;; esac
pass=0 fail=0 skip=0 failed=()
THP=/sys/kernel/mm/transparent_hugepage
thp_state() {	# "enabled defrag", the selected words
	local f out=""
	for f in enabled defrag; do
		[ -r "$THP/$f" ] && out="$out $(sed 's/.*\[\(.*\)\].*/\1/' "$THP/$f")"
	done
	echo "${out# }"
}
thp_put_back() {
	set -- $1
	[ -w "$THP/enabled" ] && [ -n "${1:-}" ] && echo "$1" >"$THP/enabled"
	[ -w "$THP/defrag" ] && [ -n "${2:-}" ] && echo "$2" >"$THP/defrag"
}
for t in "$@"; do
	name=$(basename "$t")
	log=$(mktemp)
	start=$(date +%s)
	state=$(mktemp -d)
	# the machine lock too: a benchmark run elsewhere on the box must not fail the suite
	# the lock covers the THP snapshots too: another suite's script may hold THP at never
	if [ -n "${MMBENCH_E2E_LOCK:-}" ]; then
		exec 9>"$MMBENCH_E2E_LOCK"
		flock 9
	fi
	before=$(thp_state)
	MMBENCH_STATE=$state MMBENCH_LOCK=$state/machine.lock bash "$t" >"$log" 2>&1 9>&-
	rc=$?
	# THP is what every later test measures under: a script that leaves it
	# changed fails, and it is put back so the rest still mean something
	after=$(thp_state)
	if [ "$after" != "$before" ] && [ $rc -ne 77 ]; then
		echo "left THP changed: $after (was $before)" >>"$log"
		thp_put_back "$before"
		rc=1
	fi
	# a journal left behind is a knob nobody restored: fail, keep it for `mmbench restore`
	if [ -s "$state/journal" ] && [ $rc -ne 77 ]; then
		echo "left an unrestored journal in $state (MMBENCH_STATE=$state mmbench restore)" >>"$log"
		rc=1
	else
		rm -rf "$state"
	fi
	exec 9>&-	# the lock, if taken
	secs=$(( $(date +%s) - start ))
	case $rc in
	0) pass=$((pass + 1)); echo "PASS $name (${secs}s)" ;;
	77) skip=$((skip + 1)); echo "SKIP $name: $(tail -n 1 "$log")" ;;
	*) fail=$((fail + 1)); failed+=("$name"); echo "FAIL $name (exit $rc, ${secs}s)"; sed 's/^/    /' "$log" | tail -n 40 ;;
	esac
	rm -f "$log"
done
echo "e2e: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
