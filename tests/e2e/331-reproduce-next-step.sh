#!/bin/bash
# Issue 45 item 8 (rest): the plan reproduce prints has a time estimate
# (kernels x runs x an iteration: from the report's runtime parameters, and
# from earlier runs of the experiment in the DB once there are some), and a
# reproduce on the running kernel, which measures one of the report's
# commits, ends with the exact commands that complete the A/B: --tree with
# a kernel tree, or --name after booting the other commit.
. "$(dirname "$0")/../e2e-lib.sh"
[ -f "${MMBENCH_BUILD:-build}/workloads/aim9.so" ] || die "aim9 plugin not built"
export MMBENCH_STATE=${MMBENCH_STATE:-$TMP/state}

aim9_report "$TMP/report.txt" </dev/null	# aim9 brk_test, testtime 1s
R=$TMP/report.txt

# the plan, before anything ran: 2 commits x 3 runs x 1 s, from the report's testtime
"$MMB" -q reproduce --dry-run --runs 3 --db "$MMBENCH_DB" "$R" > "$TMP/plan1" 2> "$TMP/err" ||
	die "dry run: $(cat "$TMP/err")"
grep -q '^time estimate: 2 kernels x 3 runs x 1s an iteration = about 6s of measuring (an estimate from the report.s runtime parameters)$' "$TMP/plan1" ||
	die "no time estimate in the plan: $(cat "$TMP/plan1")"
[ ! -e "$MMBENCH_DB" ] || die "the dry run created the DB"
# --tree: boots per kernel in the estimate, and builds and boots said
"$MMB" -q reproduce --dry-run --tree "$TMP" --rounds 3 --runs 6 "$R" > "$TMP/plan2" 2>&1 || true
grep -q '^time estimate: 2 kernels x 3 boots x 2 runs x 1s an iteration = about 12s of measuring, plus builds and boots' "$TMP/plan2" ||
	die "--tree estimate: $(grep -i estimate "$TMP/plan2")"

# one commit measured here (the base): the next step, as commands to copy
"$MMB" -q reproduce --runs 2 --name aaaaaaaaaa --db "$MMBENCH_DB" "$R" > "$TMP/o1" 2> "$TMP/e1" ||
	die "base run failed: $(cat "$TMP/e1")"
grep -q '^time estimate: 1 kernel x 2 runs x 1s an iteration' "$TMP/o1" || die "no estimate before the run: $(cat "$TMP/o1")"
[ "$(grep -n '^time estimate' "$TMP/o1" | cut -d: -f1)" -lt "$(grep -n 'recording under label' "$TMP/o1" | cut -d: -f1)" ] ||
	die "the estimate is not printed before the run"
grep -q '^next step: A/B aaaaaaaaaa against the report.s other commit in VMs, from a kernel git tree holding them (KERNEL_TREE):$' "$TMP/o1" ||
	die "no next step: $(cat "$TMP/o1")"
grep -qxF "  mmbench reproduce --tree KERNEL_TREE --runs 2 --db $MMBENCH_DB $R" "$TMP/o1" ||
	die "no --tree command: $(grep -A1 'next step' "$TMP/o1")"
grep -q '^or boot the report.s suspect commit bbbbbbbbbb on this machine and run:$' "$TMP/o1" || die "no --name step"
grep -qxF "  mmbench reproduce --name bbbbbbbbbb --runs 2 --db $MMBENCH_DB $R" "$TMP/o1" || die "no --name command"
# the command it prints runs (a copy of the report under a name a shell must quote)
cp "$R" "$TMP/it's a report.txt"
"$MMB" -q reproduce --runs 2 --name aaaaaaaaaa --db "$MMBENCH_DB" "$TMP/it's a report.txt" > "$TMP/o2" 2>&1 ||
	die "second base run: $(cat "$TMP/o2")"
cmd=$(grep -A1 '^or boot' "$TMP/o2" | tail -1)
case $cmd in *"'$TMP/it'\\''s a report.txt'") ;; *) die "the report's name is not quoted for a shell: $cmd" ;; esac
# the estimate now comes from the iterations the DB holds
"$MMB" -q reproduce --dry-run --runs 3 --db "$MMBENCH_DB" "$R" > "$TMP/plan3" 2>&1 || die "dry run 3"
grep -Eq '^time estimate: 2 kernels x 3 runs x [0-9.]+m?s an iteration = about [0-9.]+m?s of measuring \(the mean of 4 iterations of earlier lkp-aim9-brk_test runs in the DB\)$' "$TMP/plan3" ||
	die "estimate from the DB: $(grep estimate "$TMP/plan3")"
# the other commit measured too: the comparison is complete, no next step
"$MMB" -q reproduce --runs 2 --name bbbbbbbbbb --db "$MMBENCH_DB" - < "$R" > "$TMP/o4" 2>&1 || die "stdin run"
! grep -q '^next step' "$TMP/o4" || die "a next step after the comparison is complete"
echo ok
