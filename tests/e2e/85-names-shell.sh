#!/bin/bash
# Hostile names beyond the labels of 15-labels.sh: workload, metric and
# variant names from an imported CSV and kernel labels carrying $(...),
# backquotes, ;, quotes, newlines and non-UTF-8 bytes go through import,
# compare (every format), plot (gnuplot runs `...` inside "..." strings
# through /bin/sh, so plot scripts must escape it) and report.  Nothing may
# execute, and the names come back byte for byte.
. "$(dirname "$0")/../e2e-lib.sh"
P=$TMP/pwned
evil_label='k`touch '"$P"'.1`$(touch '"$P"'.2);touch '"$P"'.3 "q'"'"
evil_wl='w`touch '"$P"'.4`'
evil_metric='m$(touch '"$P"'.5)'$'\xb1'
# CSV quoting: double the quotes inside a quoted field
csvq() { printf '"%s"' "$(printf '%s' "$1" | sed 's/"/""/g')"; }
for lab in base new; do
	{
		echo "workload,metric,variant,iteration,value"
		for i in 1 2 3 4 5; do
			v=$([ $lab = base ] && echo "10$i" || echo "20$i")
			printf '%s,%s,%s,%d,%s\n' "$(csvq "$evil_wl")" "$(csvq "$evil_metric")" \
				"$(csvq 'size=1G`touch '"$P"'.6`')" "$i" "$v"
		done
	} > "$TMP/$lab.csv"
done
"$MMB" import --name "$evil_label" "$TMP/base.csv" > /dev/null
"$MMB" import --name new "$TMP/new.csv" > /dev/null
hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n' | tr a-f A-F; }
[ "$(q "SELECT hex(label) FROM kernels WHERE id = 1")" = "$(hex "$evil_label")" ] || die "label changed"
[ "$(q "SELECT DISTINCT hex(workload) FROM samples")" = "$(hex "$evil_wl")" ] || die "workload changed"
[ "$(q "SELECT DISTINCT hex(metric) FROM samples")" = "$(hex "$evil_metric")" ] || die "metric changed"
for fmt in text mmtests lkp markdown csv json; do
	"$MMB" compare --format "$fmt" "$evil_label" new > "$TMP/cmp.$fmt" ||
		die "compare --format $fmt failed"
done
grep -qF "$evil_wl" "$TMP/cmp.text" || die "workload name not printed back by compare"
if command -v gnuplot >/dev/null; then
	"$MMB" plot --out "$TMP/plots" "$evil_label" new > /dev/null 2>&1 || die "plot failed"
	ls "$TMP"/plots/*.gp > /dev/null || die "plot wrote no scripts"
	if "$MMB" help report > /dev/null 2>&1; then
		"$MMB" report --out "$TMP/report" "$evil_label" new > "$TMP/rep.out" 2>&1 ||
			{ cat "$TMP/rep.out"; die "report failed"; }
	fi
else
	echo "gnuplot not installed: plot not exercised"
fi
ls "$P".* 2>/dev/null && die "a name reached a shell"
echo ok
