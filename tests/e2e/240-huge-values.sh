#!/bin/bash
# Issue 42 item 10: values near DBL_MAX, near 0 and their negatives.
# 1.7e308 vs 1.6e308 printed a change of -inf% beside a finite CI and
# p = 0 (1/x underflowed, the variance was 0); mmtests printed 300-digit
# cells.  Every statistic is computed on one power-of-two scale and every
# number a person reads has bounded digits: each layout shows the change of 1.6 vs 1.7.
. "$(dirname "$0")/../e2e-lib.sh"
cd "$TMP"
csv() {	# SCALE-SUFFIXES of metric m (huge), t (tiny), n (negative huge), s (mixed sign)
	echo "workload,metric,variant,iteration,value"
	i=0
	for v in $1; do i=$((i + 1)); echo "w,m,,$i,${v}e308"; echo "w,t,,$i,${v}e-310"; done
	i=0
	for v in $1; do i=$((i + 1)); echo "w,n,,$i,-${v}e308"; echo "w,s,,$i,$2${v}e307"; done
}
csv "1.70 1.69 1.71 1.72" "" > base.csv
csv "1.60 1.59 1.61 1.58 1.62" "-" > new.csv
"$MMB" -q import --name base base.csv
"$MMB" -q import --name new new.csv
for fmt in text mmtests lkp markdown csv json; do
	"$MMB" compare --format "$fmt" base new > "cmp.$fmt" 2> err || [ $? = 1 ] ||
		die "compare --format $fmt: $(cat err)"
	grep -qE '[0-9]{25}' "cmp.$fmt" && die "$fmt: a number of 25+ digits: $(grep -oE '[0-9]{25,}' "cmp.$fmt" | head -1 | cut -c1-60)..."
	case $fmt in csv | json) ;; *) [ "$(wc -L < "cmp.$fmt")" -lt 200 ] ||
		die "$fmt: a line of $(wc -L < "cmp.$fmt") characters" ;;
	esac
done
for t in welch mwu mmtests lkp; do
	"$MMB" compare --test "$t" base new > "test.$t" 2> err || [ $? = 1 ] || die "compare --test $t: $(cat err)"
	grep -qE "[0-9]{25}" "test.$t" && die "--test $t: a number of 25+ digits"
	grep -qE "inf%|nan%" "test.$t" && die "--test $t: an infinite change: $(grep -E "inf%|nan%" "test.$t")"
done
grep -qE 'inf%|nan%' cmp.text cmp.mmtests cmp.lkp cmp.markdown &&
	die "an infinite change where the true one is finite: $(grep -E 'inf%|nan%' cmp.text cmp.mmtests cmp.lkp cmp.markdown)"
# the huge and the tiny rows: the change of 1.6 vs 1.7, a p that is not 0
unwrap cmp.text > cmp.rows	# a folded row on one line
for m in m t; do
	line=$(grep "^w $m " cmp.rows) || die "no row $m: $(cat cmp.text)"
	echo "$line" | grep -qF -- '-6.16%' || die "row $m: change not -6.16%: $line"
	echo "$line" | grep -qE '0\.0e\+00|inf' && die "row $m: p = 0 or an infinite CI: $line"
	echo "$line" | grep -qE '\[-[0-9.]+%, -[0-9.]+%\]' || die "row $m: CI not finite: $line"
done
grep -q '^w n .*+6\.16%' cmp.rows || die "negative huge row: $(grep -A1 '^w n ' cmp.text)"
grep -q '^w s .*-193\.84%' cmp.rows || die "a change across 0 near DBL_MAX: $(grep -A1 '^w s ' cmp.text)"
grep -qF '1.70e+308' cmp.mmtests || die "mmtests cell not in the e-form: $(grep Hmean cmp.mmtests)"
python3 - cmp.json <<'PY' || die "json: $(cat cmp.json)"
import json, sys
d = json.load(open(sys.argv[1]))
for row in d["rows"]:
    t = row["kernels"][1]["test"]
    if row["metric"] in ("m", "t"):
        assert abs(t["rel_pct"] + 6.16) < 0.01 and 0 < t["p"] < 0.05, row
PY
# the run summary of show, and the report's text
"$MMB" show 1 > show.txt || die "show"
grep -qE '[0-9]{25}' show.txt && die "show: a number of 25+ digits: $(cat show.txt)"
if command -v gnuplot > /dev/null; then
	"$MMB" report --out rep base new > /dev/null 2> err || [ $? = 1 ] || die "report: $(cat err)"
	grep -qE '[0-9]{25}|inf%' rep/report.txt rep/report.md rep/report.html &&
		die "report: $(grep -hE '[0-9]{25}|inf%' rep/report.txt rep/report.md rep/report.html | head -2 | cut -c1-200)"
	grep -rqE '[0-9]{25}' rep/*.gp 2> /dev/null && die "a plot script with a 25-digit number"
fi
echo ok
