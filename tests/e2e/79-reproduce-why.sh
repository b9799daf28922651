#!/bin/bash
# e2e: reproduce lists the report's rows beside the KPI.  A synthetic report
# names aim9 brk_test and, under the KPI, rows mmbench measures
# (aim9.time.system_time, proc-vmstat.pgfault, perf-stat.i.context-switches:
# the lkp qualifier dropped) and rows it cannot (a perf-stat event it never
# counts, mpstat, a perf-profile row).  Both commits run on this kernel
# (--name); the table then holds our row and the report's for each measured
# row, each gets a verdict line (report vs here, p and BH q), and the rest are
# named with why they are not measured.
. "$(dirname "$0")/../e2e-lib.sh"
[ -x "$MMB" ] || die "$MMB not built"
[ -f "${MMBENCH_BUILD:-build}/workloads/aim9.so" ] || die "aim9 plugin not built"
export MMBENCH_STATE=${MMBENCH_STATE:-$TMP/state}

aim9_report "$TMP/report.txt" <<'R'
    201.54            +2.9%     207.44        aim9.time.system_time
     97.70            -5.9        91.84        aim9.time.user_time
      0.21 ±  3%      +0.0        0.22 ±  2%  mpstat.cpu.all.soft%
  8.33e+08            +3.9%  8.654e+08        perf-stat.i.branch-instructions
    1234.5            +1.2%     1249.3        perf-stat.i.context-switches
      7.16 ±  2%      -0.4        6.76 ±  4%  perf-profile.calltrace.cycles-pp.entry_SYSCALL_64_after_hwframe.__x64_sys_brk
     30.12 ± 12%     +15.3%      34.73 ± 10%  proc-vmstat.pgfault
R

for name in aaaaaaaaaa bbbbbbbbbb; do
	"$MMB" -q reproduce --runs 3 --name $name --db "$MMBENCH_DB" "$TMP/report.txt" >"$TMP/o-$name" 2>"$TMP/e-$name" ||
		die "$name run failed: $(cat "$TMP/e-$name")"
	# a vmstat key only the base's iterations have (the suspect's count as 0):
	# a change the report does not list, which compare's rules pick up
	[ $name = bbbbbbbbbb ] || q "INSERT INTO monitors SELECT id, 'vmstat', 'zz_marker', 5000 + 100 * iteration
	                             FROM iterations WHERE warmup = 0 AND status = 'ok'"
done
o=$TMP/o-bbbbbbbbbb
cell='( ±[ 0-9]{3}%| {6})'
# our row and the report's for each measured row, in the report's order, KPI first
grep -E '  (aim9|proc-vmstat|perf-stat)\.[a-z_.-]+  \((here|report)' "$o" | sed -E 's/.*  ([a-z0-9_.-]+)  \((here|report).*/\1 \2/' >"$TMP/order"
cat >"$TMP/want" <<'W'
aim9.brk_test.ops_per_sec here
aim9.brk_test.ops_per_sec report
aim9.time.system_time here
aim9.time.system_time report
aim9.time.user_time here
aim9.time.user_time report
perf-stat.i.context-switches here
perf-stat.i.context-switches report
proc-vmstat.pgfault here
proc-vmstat.pgfault report
W
diff -u "$TMP/want" "$TMP/order" || die "table rows: $(cat "$o")"
grep -Eq "^ +[0-9.e+]+$cell +[+-][0-9]+\.[0-9]% +[0-9.e+]+$cell  aim9\.time\.system_time  \(here, n=3/3\)$" "$o" ||
	die "our system_time row: $(cat "$o")"
grep -q '^    201.54            +2.9%     207.44        aim9.time.system_time  (report, vm-2)$' "$o" ||
	die "the report's system_time row: $(cat "$o")"
# a row the report gives an absolute change (no %) is compared as a difference
grep -Eq "^ +[0-9.e+]+$cell +[+-][0-9]+\.[0-9]   +[0-9.e+]+$cell  aim9\.time\.user_time  \(here, n=3/3\)$" "$o" ||
	die "our user_time row (absolute change): $(cat "$o")"
grep -Eq '^  aim9.time.user_time bbbbbbbbbb: report -5.9, here [+-][0-9.e+-]+ \[CI [+-][0-9.e+-]+, [+-][0-9.e+-]+\], p=' "$o" ||
	die "user_time verdict (absolute): $(cat "$o")"
grep -q '^the report.s rows beside the KPI:$' "$o" || die "no why section: $(cat "$o")"
verdict='report [+-][0-9.]+%, here [+-][0-9.]+% \[CI [+-][0-9.]+, [+-]([0-9.]+|inf)\], p=[0-9.e+-]+, q=[0-9.e+-]+: (agrees|opposite direction|no significant change here)$'
for m in aim9.time.system_time perf-stat.i.context-switches proc-vmstat.pgfault; do
	grep -Eq "^  $m bbbbbbbbbb: ($verdict|inconclusive: .+)" "$o" || die "verdict of $m: $(cat "$o")"
done
grep -q "^  not measured here (not among the run's counters, or unsupported here: show lists counters.unsupported): perf-stat.i.branch-instructions$" "$o" || die "unmeasured perf-stat: $(cat "$o")"
grep -q '^  not measured here (no such monitor in mmbench): mpstat.cpu.all.soft%$' "$o" || die "unmeasured mpstat: $(cat "$o")"
grep -q '^  not measured here (profiles are not part of reproduce; see run --profile, compare --profile): perf-profile.calltrace.cycles-pp.entry_SYSCALL_64_after_hwframe.__x64_sys_brk$' "$o" ||
	die "unmeasured profile: $(cat "$o")"
grep -q '^monitor rows that changed here (lkp.s rules, never in the verdict; docs/monitors.md):$' "$o" ||
	die "no changed-monitors section: $(cat "$o")"
# (on a busy machine the run's iterations are disturbed and the row says "; inconclusive")
grep -Eq '^  aim9( \([^)]*\))? proc-vmstat.zz_marker: bbbbbbbbbb -100.0% \([0-9.]+ -> 0, BH q = [0-9.e-]+(; inconclusive)?\)$' "$o" ||
	die "the changed vmstat key the report does not list: $(cat "$o")"
# the KPI verdict is still there, once
[ "$(grep -Ec '^suspect bbbbbbbbbb: (report: |inconclusive: )' "$o")" = 1 ] || die "KPI verdict: $(cat "$o")"

# the change cell is the DB's: the means of the clean measured iterations
mean_of() {
	q "select avg(m.delta) from monitors m join iterations i on i.id = m.iteration_id
	   join runs r on r.id = i.run_id join kernels k on k.id = r.kernel_id
	   where k.label = '$1' and m.source = 'time' and m.key = 'system_time'
	   and i.warmup = 0 and i.status = 'ok'"
}
a=$(mean_of aaaaaaaaaa) b=$(mean_of bbbbbbbbbb)
[ -n "$a" ] && [ -n "$b" ] || die "no system_time monitor rows in the DB"
want=$(q "select printf('%+.1f%%', 100.0 * ($b - $a) / $a)")
got=$(grep 'aim9.time.system_time  (here' "$o" | grep -oE '[+-][0-9]+\.[0-9]%' | head -1)
[ "$got" = "$want" ] || die "system_time change: table $got, DB $want"
echo ok
