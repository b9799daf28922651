#!/bin/bash
# report.html opens in headless Chromium without errors and every plot in it
# decodes (the page's own check sets data-plots-loaded; a broken picture is
# logged to the console).  Needs the Debian `chromium` package.
. "$(dirname "$0")/../e2e-lib.sh"
command -v gnuplot >/dev/null || skip "gnuplot is not installed (apt-get install gnuplot-nox)"
CHROME=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROME" ] || skip "chromium is not installed (apt-get install chromium)"
FIX=$(cd "$(dirname "$0")/../fixtures/plot" && pwd)

"$MMB" import --name v6.8-rc1 "$FIX/base.csv" >/dev/null
"$MMB" import --name fork-batching "$FIX/new.csv" >/dev/null
"$MMB" report --out "$TMP/r" v6.8-rc1 fork-batching >/dev/null 2>&1 || die "report failed"
npng=$(ls "$TMP/r"/*.png | wc -l)
[ "$npng" -gt 0 ] || die "no plots"

browse() {	# FILE -> DOM on stdout, browser log in $TMP/log
	"$CHROME" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run \
		--user-data-dir="$(mktemp -d -p "$TMP")" --enable-logging=stderr --v=0 \
		--dump-dom "file://$1" 2> "$TMP/log"
}

browse "$TMP/r/report.html" > "$TMP/dom" || { tail -20 "$TMP/log"; die "chromium failed"; }
grep -q '<h1>mmbench report: v6.8-rc1 vs fork-batching</h1>' "$TMP/dom" || die "page did not render"
# JavaScript errors and failed loads show up as console messages
errs=$(grep -E 'CONSOLE|Uncaught|Failed to load|net::ERR' "$TMP/log" || true)
[ -z "$errs" ] || die "console errors: $errs"
loaded=$(grep -o 'data-plots-loaded="[0-9]*"' "$TMP/dom" | grep -o '[0-9]*')
[ "$loaded" = "$npng" ] || die "$npng plots in the bundle, $loaded decoded in the browser"
for png in "$TMP/r"/*.png; do
	grep -qF "data-file=\"$(basename "$png")\"" "$TMP/dom" || die "$(basename "$png") not in the page"
done

# the check itself works: a corrupt picture is reported
sed '0,/base64,iVBOR/s//base64,AAAAA/' "$TMP/r/report.html" > "$TMP/bad.html"
browse "$TMP/bad.html" > "$TMP/dom"
grep -q 'plots not decoded' "$TMP/log" || die "a broken picture went unnoticed"
echo ok
