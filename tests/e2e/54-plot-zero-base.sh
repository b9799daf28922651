#!/bin/bash
# plot and report on ebizzy-like data where time.sys and time.user are 0 in
# every baseline run and two groups of metrics (records/s, s) are drawn
# together: every picture is written under its own name, a picture that
# cannot be drawn is skipped with one line naming it and why, exit 0; the
# tables print n/a (said once) instead of inf, nan or 1e+99.
. "$(dirname "$0")/../e2e-lib.sh"
command -v gnuplot >/dev/null || skip "gnuplot is not installed (apt-get install gnuplot-nox)"
FIX=$(cd "$(dirname "$0")/../fixtures/compare" && pwd)

"$MMB" -q import --name base "$FIX/zero-base.csv"
"$MMB" -q import --name new "$FIX/zero-new.csv"

"$MMB" plot --out "$TMP/p" base new > "$TMP/list" 2> "$TMP/err" || { cat "$TMP/err"; die "plot failed"; }
for n in ebizzy-all_metrics_in_records_s-box ebizzy-all_metrics_in_records_s-change \
	 ebizzy-all_metrics_in_s-box ebizzy-time.sys-dist-threads_2; do
	[ -s "$TMP/p/$n.png" ] && [ -s "$TMP/p/$n.gp" ] && [ -s "$TMP/p/$n.dat" ] || die "missing $n"
	grep -qx "$TMP/p/$n.png" "$TMP/list" || die "$n.png not listed"
done
[ "$(ls "$TMP/p"/*.png | wc -l)" = "$(wc -l < "$TMP/list")" ] || die "listed != written"
! grep -q '^error:' "$TMP/err" || { cat "$TMP/err"; die "an error on drawable data"; }
# the s metrics have no relative change: that chart is skipped, saying why, once
grep -qx "warning: skipped plot $TMP/p/ebizzy-all_metrics_in_s-change.png: no relative change, the baseline mean is 0" \
	"$TMP/err" || { cat "$TMP/err"; die "skipped change chart not explained"; }
[ "$(grep -c 'skipped plot' "$TMP/err")" = 1 ] || { cat "$TMP/err"; die "one line per skipped plot"; }

# one picture gnuplot fails on: that one is skipped with gnuplot's message, the rest drawn
cat > "$TMP/gp1" <<'EOS'
#!/bin/sh
sed '/^set output ".ebizzy-all_metrics_in_s-box/a no_such_gnuplot_command 1' | gnuplot "$@"
EOS
chmod +x "$TMP/gp1"
MMBENCH_GNUPLOT=$TMP/gp1 "$MMB" plot --out "$TMP/f" base new > "$TMP/list" 2> "$TMP/err" ||
	{ cat "$TMP/err"; die "one failing picture failed the whole plot"; }
grep -q "^warning: skipped plot $TMP/f/ebizzy-all_metrics_in_s-box.png: gnuplot could not draw it: .*no_such_gnuplot_command" \
	"$TMP/err" || { cat "$TMP/err"; die "failing picture not named with gnuplot's message"; }
[ ! -e "$TMP/f/ebizzy-all_metrics_in_s-box.png" ] || die "the failed picture was kept"
! grep -q 'all_metrics_in_s-box' "$TMP/list" || die "the failed picture was listed"
[ -s "$TMP/f/ebizzy-all_metrics_in_records_s-box.png" ] || die "the other pictures were not written"
[ -z "$(ls -A "$TMP/f" | grep '^\.')" ] || die "temporary files left: $(ls -A "$TMP/f")"

# report: the bundle is written, exit 0, and its tables say n/a
MMBENCH_GNUPLOT=$TMP/gp1 "$MMB" report --out "$TMP/r" base new > "$TMP/list" 2> "$TMP/err" ||
	{ cat "$TMP/err"; die "report failed"; }
for f in report.txt report.md report.html; do
	[ -s "$TMP/r/$f" ] || die "missing $f"
	# (the pictures' base64 is left out: its letters can spell anything)
	! sed 's/base64,[^"]*//g' "$TMP/r/$f" | grep -qiE 'inf%|nan%|e\+99' ||
		die "$f prints inf/nan: $(sed 's/base64,[^"]*//g' "$TMP/r/$f" | grep -iE 'inf%|nan%|e\+99')"
done
! grep -q 'all_metrics_in_s-box' "$TMP/r/report.md" "$TMP/r/report.html" || die "report embeds a skipped plot"
grep -q 'n/a: the baseline is 0' "$TMP/r/report.txt" || die "report.txt does not say why n/a"

# every compare layout: n/a, no inf/nan, the reason once (lkp, as 0-day,
# lists only the changed stats: the unchanged zero-base rows are left out)
for f in text mmtests lkp markdown; do
	"$MMB" compare --format "$f" base new > "$TMP/c" 2>&1 || die "compare --format $f"
	! grep -qiE 'inf|nan|e\+99' "$TMP/c" || die "compare --format $f: $(grep -iE 'inf|nan|e\+99' "$TMP/c")"
	want=1; [ $f = lkp ] && want=0
	[ "$(grep -c '^n/a: the baseline is 0' "$TMP/c")" = $want ] || die "compare --format $f: reason not said $want times"
done
"$MMB" compare --format lkp base new | grep -q '^2 unchanged stats left out' || die "lkp: unchanged rows not counted"
"$MMB" compare --format csv base new | grep '^ebizzy,threads=2,time.sys,s,lower,new,' |
	grep -q ',,,,0,no significant change,amean,0,' || die "csv: empty relative fields"
"$MMB" compare --format json base new | grep -q '"rel_pct":null' || die "json: null relative change"
echo ok
