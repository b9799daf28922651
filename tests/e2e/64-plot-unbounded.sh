#!/bin/bash
# Intervals the data cannot bound: with two spread samples the harmonic
# mean's upper 95% limit does not exist (the reciprocals' interval reaches
# 0), and so does the upper limit of its change.  Such a point is drawn
# with its interval reaching the panel's edge, marked there, instead of
# gnuplot dropping it (every point of a kernel open: its line vanished, or
# the picture failed, as it did for e2e 57 under load).  A kernel whose
# every iteration was left out as disturbed leaves the others drawn.
. "$(dirname "$0")/../e2e-lib.sh"
command -v gnuplot >/dev/null || skip "gnuplot is not installed (apt-get install gnuplot-nox)"

hdr="workload,metric,variant,iteration,value,unit,better"
{ echo $hdr; for ms in 5 10 20; do
	echo "spin,passes,ms=$ms,1,500,passes/s,higher"; echo "spin,passes,ms=$ms,2,510,passes/s,higher"; done; } > "$TMP/a.csv"
{ echo $hdr; for ms in 5 10 20; do
	echo "spin,passes,ms=$ms,1,400,passes/s,higher"; echo "spin,passes,ms=$ms,2,600,passes/s,higher"; done; } > "$TMP/b.csv"
"$MMB" -q import --name a "$TMP/a.csv"
"$MMB" -q import --name b "$TMP/b.csv"

"$MMB" plot --out "$TMP/p" a b > "$TMP/list" 2> "$TMP/err" || die "plot failed: $(cat "$TMP/err")"
for k in scaling change; do
	[ -s "$TMP/p/spin-passes-$k.png" ] || die "no $k plot: $(cat "$TMP/err")"
done
! grep -q 'skipped plot' "$TMP/err" || die "a plot was skipped: $(cat "$TMP/err")"
# the data keeps the truth: b's upper limits are nan, its changes' inf
[ "$(awk '/^# block 1:/ { b = 1; next } /^# block 2:/ { b = 0 } b && /^[0-9]/ && $4 == "nan"' \
	"$TMP/p/spin-passes-scaling.dat" | wc -l)" = 3 ] || die "b's upper limits should be open: $(cat "$TMP/p/spin-passes-scaling.dat")"
# the script draws them to the edge, a triangle there, and says what it means
gp=$TMP/p/spin-passes-scaling.gp
grep -q 'index 1 using [^ ]*:2:3:(valid(4)&&\$4<' "$gp" || die "open upper limits not drawn to the edge: $(grep index "$gp")"
grep -q "index 1 using .*pt 9" "$gp" || die "no triangle for b's open limits"
! grep -q "index 0 using .*pt 9" "$gp" || die "a's limits are closed: no triangle"
grep -q 'CI unbounded (too few or too spread samples)' "$gp" || die "the triangles are not explained"
grep -q 'valid(4)' "$TMP/p/spin-passes-change.gp" || die "the change chart's open limits not drawn to the edge"
# the edge lies inside the y range the script sets
top=$(sed -n 's/.*index 1 using [^ ]*:2:3:(valid(4)&&\$4<\([0-9.e+]*\)?.*/\1/p' "$gp" | head -1)
yr=$(sed -n 's/^set yrange \[\([^:]*\):\([^]]*\)\].*/\2/p' "$gp" | head -1)
awk -v t="$top" -v y="$yr" 'BEGIN { exit !(t > 0 && t <= y) }' || die "edge $top outside the y range (top $yr)"

# every iteration of a run left out as disturbed: the other kernel is still
# drawn, the key says why the other has no line, and no change is drawn;
# plot then exits 1 with the sentence that says so (issue 28)
export MMBENCH_DB=$TMP/runs.db MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
spin_ms_runs a b
n=$(q "UPDATE iterations SET disturbed = 'foreign CPU 50% of 2 CPUs (limit 10%)' WHERE run_id = 1; SELECT changes()")
[ "$n" = 6 ] || die "marked $n iterations of run 1 disturbed, expected 6"
set +e
"$MMB" plot --out "$TMP/d" a b > /dev/null 2> "$TMP/err"; rc=$?
set -e
[ $rc = 1 ] || die "plot of a disturbed kernel: exit $rc, expected 1: $(cat "$TMP/err")"
grep -q "error: every iteration of spin ms=5 passes under 'a' was disturbed" "$TMP/err" ||
	die "plot: no sentence: $(cat "$TMP/err")"
[ -s "$TMP/d/spin-passes-scaling.png" ] || die "no scaling plot with a disturbed: $(cat "$TMP/err")"
grep -q 'title "b"' "$TMP/d/spin-passes-scaling.gp" || die "b not drawn"
grep -q 'keyentry .*title "a: no samples"' "$TMP/d/spin-passes-scaling.gp" ||
	die "the key does not say why a has no line"
grep -q 'no change to show' "$TMP/d/spin-passes-scaling.gp" || die "a change drawn without a baseline"
echo ok
