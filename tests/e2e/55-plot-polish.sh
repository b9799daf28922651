#!/bin/bash
# Plot polish on pft-like data (faults/cpu ~200k, elapsed ~35 ms, a noisy
# system time of 2 samples): the scaling legend sits above the panels, not
# on the data; each y range holds every 95% CI (one cut at 0 is marked);
# tics are SI-scaled (200k) and times under a second are in ms (the axis
# label says ms, the tics are numbers: scaled together); box and
# distribution axes too; with 1, 2 and 7 kernels compared to the baseline.
. "$(dirname "$0")/../e2e-lib.sh"
command -v gnuplot >/dev/null || skip "gnuplot is not installed (apt-get install gnuplot-nox)"

gen() {	# kernel index -> CSV on stdout (deterministic)
	awk -v k="$1" 'BEGIN {
		print "metric,workload,value,iteration,variant,unit,better"
		split("1 2 4 8", cl, " ")
		for (c = 1; c <= 4; c++) for (i = 1; i <= 6; i++) {
			j = ((i * 7 + c * 3 + k) % 5 - 2) / 200
			printf "faults/cpu,pft,%.2f,%d,clients=%d,faults/cpu-s,higher\n", 200000 * (1 + 0.02 * k) * (1 - 0.03 * c) * (1 + j), i, cl[c]
			printf "elapsed,pft,%.6f,%d,clients=%d,s,lower\n", 0.035 * (1 - 0.01 * k) * (1 + 0.05 * c) * (1 + j), i, cl[c]
			if (i <= 2)
				printf "system,pft,%.4f,%d,clients=%d,s,lower\n", (i == 1 ? 0.01 : 0.05) * (1 + 0.1 * k), i, cl[c]
		}
	}'
}
for k in 0 1 2 3 4 5 6 7; do
	gen $k > "$TMP/k$k.csv"
	"$MMB" -q import --name "k$k" "$TMP/k$k.csv"
done

# the y range of a script's first plot panel holds columns lo..hi of the given .dat blocks
range_holds() {	# gp dat first_block last_block lo_col hi_col which_yrange
	local r lo hi
	r=$(grep '^set yrange \[' "$1" | sed -n "${7}p" | sed 's/set yrange \[\(.*\):\(.*\)\]/\1 \2/')
	[ -n "$r" ] || return 1
	read -r lo hi <<< "$r"
	awk -v lo="$lo" -v hi="$hi" -v b0="$3" -v b1="$4" -v cl="$5" -v ch="$6" '
		/^# block / { b = $3 + 0; sub(":", "", b) }
		/^[-0-9.]/ && b >= b0 && b <= b1 && $cl != "NaN" && $ch != "NaN" {
			# open ends (inf, a ratio cut at -100%) are drawn to the edge
			if (($cl !~ /inf/ && $cl + 0 > -100 && $cl + 0 < lo - 1e-12) ||
			    ($ch !~ /inf/ && $ch + 0 > hi + 1e-12)) { print "outside: " $0; bad = 1 }
		}
		END { exit bad }' "$2"
}

for n in 2 3 8; do
	labels=$(seq -f 'k%g' 0 $((n - 1)))
	"$MMB" plot --out "$TMP/p$n" $labels > "$TMP/list" 2> "$TMP/err" || { cat "$TMP/err"; die "plot, $n kernels"; }
	P=$TMP/p$n
	for m in faults_cpu elapsed system; do
		gp=$P/pft-$m-scaling.gp
		[ -s "$P/pft-$m-scaling.png" ] || die "$n kernels: no $m scaling plot"
		grep -q '^set key at screen 0.5,0.92 center top horizontal' "$gp" || die "$n kernels, $m: legend not above the panels"
		! grep -q '^set key inside' "$gp" || die "$n kernels, $m: legend inside the data area"
		# (system's lower ends are cut at 0 on purpose: only the upper ends count)
		lo=3
		[ $m = system ] && lo=4
		range_holds "$gp" "$P/pft-$m-scaling.dat" 0 $((n - 1)) $lo 4 1 ||
			die "$n kernels, $m: a CI runs past the top panel's range"
		range_holds "$gp" "$P/pft-$m-scaling.dat" $n $((2 * n - 2)) 3 4 2 ||
			die "$n kernels, $m: a CI runs past the change panel's range"
	done
	grep -q '"200k" 200000' "$P/pft-faults_cpu-scaling.gp" || die "$n kernels: faults/cpu tics not SI-scaled (200k)"
	! grep -qE '"[0-9]{6,}"' "$P/pft-faults_cpu-scaling.gp" || die "$n kernels: a tic prints 6 digits"
	grep -qE '"[0-9]+" 0\.0[0-9]+[,)]' "$P/pft-elapsed-scaling.gp" &&
		grep -q '^set ylabel "elapsed (ms), lower is better"' "$P/pft-elapsed-scaling.gp" ||
		die "$n kernels: elapsed tics not in ms"
	grep -qE '"[0-9.]+" 0\.0' "$P/pft-elapsed-dist.gp" && grep -q '(ms)"' "$P/pft-elapsed-dist.gp" ||
		die "$n kernels: distribution x tics not in ms"
	grep -qE '"[0-9.]+k"' "$P/pft-faults_cpu-dist.gp" || die "$n kernels: distribution x tics not SI-scaled"
	# 2 samples of a positive time: the wide CI is cut at 0, and the cut is marked
	grep -q '^set yrange \[0:' "$P/pft-system-scaling.gp" || die "$n kernels: system time's range should start at 0"
	grep -q 'CI cut at 0' "$P/pft-system-scaling.gp" && grep -q 'pt 11' "$P/pft-system-scaling.gp" ||
		die "$n kernels: the cut CI is not marked"
	! grep -q 'CI cut at 0' "$P/pft-faults_cpu-scaling.gp" || die "$n kernels: nothing was cut on faults/cpu"
done

# the plots draw the statistic compare shows: Hmean for a rate, Amean for a time, or --mean's
P=$TMP/p2
grep -q 'Hmean with 95% confidence interval' "$P/pft-faults_cpu-scaling.gp" || die "faults/cpu plot should draw the Hmean"
grep -q 'Amean with 95% confidence interval' "$P/pft-elapsed-scaling.gp" || die "elapsed plot should draw the Amean"
grep -q '% change of Hmean faults/cpu' "$P/pft-faults_cpu-change.gp" || die "change chart should name the Hmean"
want=$("$MMB" compare --format csv --workload pft --metric faults/cpu k0 k1 |
	awk -F, '$2 == "clients=1" && $6 == "k0" { print $15 }')
got=$(awk '/^# block 0:/ { b = 1 } /^# block 1:/ { b = 0 } b && $1 == 1 { print $2 }' "$P/pft-faults_cpu-scaling.dat")
awk -v a="$want" -v b="$got" 'BEGIN { exit !(a > 0 && (a - b) / a < 1e-9 && (b - a) / a < 1e-9) }' ||
	die "plotted point $got is not compare's Hmean $want"
"$MMB" plot --out "$TMP/med" --mean median --workload pft --metric elapsed k0 k1 > /dev/null 2>&1 || die "plot --mean median"
grep -q 'Median with 95% confidence interval' "$TMP/med/pft-elapsed-scaling.gp" || die "--mean median not drawn"

# one variant: box plots with the same tics
"$MMB" plot --out "$TMP/one" --workload pft --metric elapsed k0 k1 > /dev/null 2>&1 || die "plot --metric"
grep -q 'elapsed (ms)' "$TMP/one/pft-elapsed-scaling.gp" || die "--metric elapsed: no ms tics"
echo ok
