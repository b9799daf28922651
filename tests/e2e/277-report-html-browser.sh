#!/bin/bash
# report.html in a real browser at 1280 px (issue 45 item 5): headless
# Chromium loads the page with a probe script; the page is no wider than
# the window (wide tables scroll in their own box, the settings box
# wraps), the verdict and the first KPI rows are in the first screen
# (900 px), the sections lead with results (Verdict, Comparison,
# Significant changes, then plots, then the machine, kernels and
# environment), and no monitor row is in a table.  A screenshot is kept
# beside the page for a look.  Skipped, saying so, without chromium.
. "$(dirname "$0")/../e2e-lib.sh"
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || skip "chromium is not installed (tools/install-deps.sh test)"
FIX=$(cd "$(dirname "$0")/../fixtures" && pwd)
"$MMB" -q import --name 6.8-base "$FIX/plot/base.csv"
"$MMB" -q import --name 6.8-thp "$FIX/plot/new.csv"
"$MMB" -q import --name 6.8-base "$FIX/compare/vmstat-base.matrix.json"
"$MMB" -q import --name 6.8-thp "$FIX/compare/vmstat-new.matrix.json"
# a third kernel with a long label: the table is wider than the window
L3=mm-unstable-2024-03-01-fork-batching-v3-with-pte-mapped-thp-and-more
"$MMB" -q import --name "$L3" "$FIX/plot/new2.csv"
long="BOOT_IMAGE=/vmlinuz-6.8.0 root=UUID=0123456789abcdef ro quiet splash mitigations=off"
long="$long transparent_hugepage=always numa_balancing=disable$(printf ' opt%03d=on' $(seq 1 40))"
q "INSERT INTO run_env VALUES (1, 'thp.enabled', 'never', NULL), (2, 'thp.enabled', 'always', NULL),
   (1, 'kernel.cmdline', '$long', NULL), (2, 'kernel.cmdline', '$long x', NULL)"
plots=--no-plots
command -v gnuplot >/dev/null && plots=
"$MMB" report $plots --keep-disturbed --out "$TMP/r" 6.8-base 6.8-thp "$L3" >/dev/null 2>"$TMP/err" ||
	die "report: $(cat "$TMP/err")"
H=$TMP/r/report.html
# the probe: what the browser laid out, into the title of the dumped DOM
cp "$H" "$TMP/probe.html"
cat >>"$TMP/probe.html" <<'EOS'
<script>
(function () {
	var d = document.documentElement, h2 = document.querySelectorAll('h2'), names = [];
	for (var i = 0; i < h2.length; i++) names.push(h2[i].textContent.trim().replace(/ /g, '_'));
	var v = h2.length ? h2[0].getBoundingClientRect().top : -1;
	var t = document.querySelector('table.cmp tr:nth-child(2)');
	var tt = t ? t.getBoundingClientRect().bottom : -1;
	var mon = 0, cells = document.querySelectorAll('table.cmp td');
	for (var j = 0; j < cells.length; j++)
		if (/monitor/.test(cells[j].textContent)) mon++;
	document.title = 'PROBE scroll=' + d.scrollWidth + ' inner=' + window.innerWidth +
		' verdict=' + Math.round(v) + ' kpi=' + Math.round(tt) + ' monitor=' + mon +
		' sections=' + names.join('|');
})();
</script>
EOS
out=$(timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--window-size=1280,900 --dump-dom "file://$TMP/probe.html" 2>/dev/null |
	grep -o '<title>PROBE[^<]*</title>') || die "chromium printed no probe"
echo "$out"
timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --window-size=1280,900 \
	--screenshot="$TMP/r/screenshot-1280.png" "file://$H" >/dev/null 2>&1 || true
get() { echo "$out" | sed -n "s/.* $1=\([^ <]*\).*/\1/p"; }
[ "$(get scroll)" -le "$(get inner)" ] || die "the page is $(get scroll) px wide in a $(get inner) px window"
case "$(get sections)" in Verdict\|*) ;; *) die "the first section is not the verdict" ;; esac
[ "$(get verdict)" -ge 0 ] && [ "$(get verdict)" -lt 900 ] || die "the verdict is not in the first screen"
[ "$(get kpi)" -gt 0 ] && [ "$(get kpi)" -lt 900 ] || die "the first KPI row is not in the first screen ($(get kpi) px)"
[ "$(get monitor)" = 0 ] || die "$(get monitor) monitor cells in the tables"
case "$(get sections)" in
Verdict\|Comparison\|Significant_changes\|*Machine\|Kernels\|Environment*) ;;
*) die "sections not results first: $(get sections)" ;;
esac
echo ok
