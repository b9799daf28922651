#!/bin/bash
# Issue 27 item 4: a label is text in every output.  compare --format
# markdown and report.md printed '<img src=x onerror=alert(1)>' raw (a
# Markdown renderer shows HTML); CSV cells starting = + - @ are guarded
# with a ' against spreadsheet formulas, and export -> import keeps them.
. "$(dirname "$0")/../e2e-lib.sh"
cd "$TMP"
lab='<img src=x onerror=alert(1)>'
metric='=HYPERLINK("http://x","y")'
wl='-w|x'
csv() {	# VALUE0
	echo "workload,metric,variant,iteration,value"
	for i in 1 2 3 4 5; do printf '"%s","%s",,%d,%d\n' "$wl" "${metric//\"/\"\"}" "$i" "$(($1 + i))"; done
}
csv 100 > base.csv
csv 200 > new.csv
"$MMB" import --name "$lab" base.csv > /dev/null
"$MMB" import --name new new.csv > /dev/null
"$MMB" compare --format markdown "$lab" new > cmp.md
grep -qE '(^|[^\\])<img' cmp.md && die "raw HTML in compare --format markdown: $(grep -F '<img' cmp.md)"
grep -qF '\<img src=x onerror=alert(1)\>' cmp.md || die "label not shown escaped: $(cat cmp.md)"
grep -qF -- '-w\|x' cmp.md || die "a | in a name breaks the table: $(head -3 cmp.md)"
if command -v gnuplot > /dev/null && "$MMB" help report > /dev/null 2>&1; then
	"$MMB" report --out rep "$lab" new > /dev/null 2>&1 || die "report failed"
	grep -rqE '(^|[^\\])<img src=x' rep/*.md && die "raw HTML in report.md: $(grep -rF '<img src=x' rep/*.md)"
fi
"$MMB" compare --format csv "$lab" new > cmp.csv
grep -qF "\"'=HYPERLINK" cmp.csv || die "formula cell not guarded: $(head -3 cmp.csv)"
grep -qF "\"'-w|x\"" cmp.csv || die "-w cell not guarded: $(head -3 cmp.csv)"
grep -q ',=HYPERLINK\|^=' cmp.csv && die "a cell starts with =: $(head -3 cmp.csv)"
# export CSV is guarded too, and import takes the guard off: names round-trip
"$MMB" export --format csv > all.csv
grep -qF "\"'=HYPERLINK" all.csv || die "export CSV not guarded"
"$MMB" import --db back.db --name again all.csv > /dev/null 2> err || die "re-import: $(cat err)"
[ "$(sqlite3 back.db "SELECT DISTINCT metric || '/' || workload FROM samples")" = "$metric/$wl" ] ||
	die "names changed by export -> import: $(sqlite3 back.db "SELECT DISTINCT metric, workload FROM samples")"
echo ok
