#!/bin/bash
# mmbench plot on a DB imported from fixed samples: every expected picture
# with its .gp and .dat, PNGs valid at the requested size, the scripts
# re-render under gnuplot, svg/pdf, filters, and the failure paths (gnuplot
# missing or failing: one clear error, no files left behind).
. "$(dirname "$0")/../e2e-lib.sh"
command -v gnuplot >/dev/null || skip "gnuplot is not installed (apt-get install gnuplot-nox)"
FIX=$(cd "$(dirname "$0")/../fixtures/plot" && pwd)

"$MMB" import --name v6.8-rc1 "$FIX/base.csv" >/dev/null
"$MMB" import --name fork-batching "$FIX/new.csv" >/dev/null
"$MMB" import --name fork-batching-v2 "$FIX/new2.csv" >/dev/null

# "WxH" from the PNG signature and IHDR chunk (one od per file)
png_size() {
	od -An -tu1 -N24 "$1" | tr -s ' \n' ' ' | awk '{
		if ($1 != 137 || $2 != 80 || $3 != 78 || $4 != 71 || $5 != 13 || $6 != 10 || $7 != 26 || $8 != 10) { print "not-a-PNG"; exit }
		if ($13 != 73 || $14 != 72 || $15 != 68 || $16 != 82) { print "no-IHDR"; exit }
		printf "%dx%d\n", $17*16777216+$18*65536+$19*256+$20, $21*16777216+$22*65536+$23*256+$24 }'
}

# ---- the full set, three kernels ----
"$MMB" plot --out "$TMP/p" v6.8-rc1 fork-batching fork-batching-v2 > "$TMP/list" 2> "$TMP/err" ||
	{ cat "$TMP/err"; die "plot failed"; }
expected="pft-faults_cpu-scaling pft-elapsed-scaling pft-faults_cpu-change pft-elapsed-change
	  pte-mapped-folio-seconds-box pte-mapped-folio-seconds-change
	  aim9-ops_per_sec-box aim9-ops_per_sec-change
	  pft-faults_cpu-dist pft-elapsed-dist pte-mapped-folio-seconds-dist
	  aim9-brk_test.ops_per_sec-dist-test_brk_test aim9-page_test.ops_per_sec-dist-test_page_test"
for n in $expected; do
	for ext in png gp dat; do
		[ -s "$TMP/p/$n.$ext" ] || die "missing $n.$ext"
	done
	grep -qx "$TMP/p/$n.png" "$TMP/list" || die "$n.png not listed on stdout"
done
# 2 scaling + 2 box + 4 change + 5 distributions (one per metric, a panel per
# variant: 2 pft metrics, 2 aim9 tests, pte-mapped-folio)
npng=$(ls "$TMP/p"/*.png | wc -l)
[ "$npng" = 13 ] || die "expected 13 pictures, got $npng"
[ "$(wc -l < "$TMP/list")" = 13 ] || die "stdout should list the 13 pictures"
[ "$(ls "$TMP/p"/*.gp | wc -l)" = 13 ] || die "a .gp per picture"
[ -z "$(ls -A "$TMP/p" | grep '^\.')" ] || die "temporary files left: $(ls -A "$TMP/p")"
for f in "$TMP/p"/*.png; do
	[ "$(png_size "$f")" = 800x600 ] || die "$f: $(png_size "$f"), expected 800x600"
done

# titles, axes, legends, caption, direction; black-and-white styles
gp=$TMP/p/pft-faults_cpu-scaling.gp
grep -q 'pft faults/cpu vs clients' "$gp" || die "scaling title"
grep -q 'faults/cpu (faults/cpu-s), higher is better' "$gp" || die "y axis names metric, unit, direction"
grep -q 'title "fork-batching-v2"' "$gp" || die "legend carries the kernel label"
grep -q 'n per point: 8 samples per label; runs: 1 per label' "$gp" || die "caption with n"
grep -q 'machine: ' "$gp" || die "caption with the machine"
grep -q 'set logscale x 2' "$gp" || die "strided client list should use log2 x"
grep -q 'set linetype 2 lc rgb "#D55E00" lw 2 dt 2 pt 5' "$gp" || die "kernels differ by dash type and point shape"
grep -q 'lower is better' "$TMP/p/pte-mapped-folio-seconds-box.gp" || die "direction of a lower-is-better metric"
grep -q 'with candlesticks' "$TMP/p/pte-mapped-folio-seconds-box.gp" || die "box plot"
grep -q '"fork 2048"' "$TMP/p/pte-mapped-folio-seconds-box.gp" || die "operation labels"
grep -q 'significant regression' "$TMP/p/aim9-ops_per_sec-change.gp" || die "brk_test -5% must show as a regression"
grep -q '% of v6.8-rc1 mean per operation' "$TMP/p/aim9-ops_per_sec-box.gp" || die "aim9 ops of different scale are normalised"
# the data are there to re-plot: 8 samples per kernel at clients=1
[ "$(awk '/^# block 0:/,/^$/' "$TMP/p/pft-faults_cpu-dist.dat" | grep -c '^[0-9]')" = 8 ] ||
	die "distribution data should hold the 8 samples"
grep -q '"clients=48 (faults/cpu-s)"' "$TMP/p/pft-faults_cpu-dist.gp" || die "a distribution panel per variant"

# ---- the scripts re-render on their own ----
# (one gnuplot for all of them; `reset session` keeps each script on its own)
mkdir "$TMP/re"
cp "$TMP/p"/*.gp "$TMP/p"/*.dat "$TMP/re/"
args=()
for gpf in "$TMP/re"/*.gp; do
	args+=("$(basename "$gpf")" -e "reset session")
done
(cd "$TMP/re" && gnuplot "${args[@]}") 2> "$TMP/gperr" || { cat "$TMP/gperr"; die "the .gp scripts do not re-run"; }
for gpf in "$TMP/re"/*.gp; do
	png=${gpf%.gp}.png
	[ "$(png_size "$png")" = 800x600 ] || die "re-rendered $png: $(png_size "$png")"
done

# ---- size, svg, pdf, filters ----
"$MMB" plot --out "$TMP/s" --size 1024x768 --workload aim9 v6.8-rc1 fork-batching > "$TMP/list" 2>/dev/null
[ "$(png_size "$TMP/s/aim9-ops_per_sec-box.png")" = 1024x768 ] || die "--size"
! grep -v '/aim9-' "$TMP/list" || die "--workload aim9 drew other workloads"
"$MMB" plot --out "$TMP/v" --format svg --workload pft --metric elapsed v6.8-rc1 fork-batching > "$TMP/list" 2>/dev/null
[ "$(wc -l < "$TMP/list")" = 3 ] || die "--metric elapsed: expected 3 pictures, got $(wc -l < "$TMP/list")"
grep -q '<svg' "$TMP/v/pft-elapsed-scaling.svg" || die "svg output"
grep -q 'width="800"' "$TMP/v/pft-elapsed-scaling.svg" || die "svg size"
"$MMB" plot --out "$TMP/d" --format pdf --workload aim9 v6.8-rc1 fork-batching >/dev/null 2>&1
[ "$(head -c 4 "$TMP/d/aim9-ops_per_sec-box.pdf")" = "%PDF" ] || die "pdf output"

# ---- sparse data: one sample, labels lacking a metric: pictures, no gnuplot error ----
"$MMB" import --name sparse "$FIX/sparse.csv" >/dev/null
"$MMB" plot --out "$TMP/sp" v6.8-rc1 sparse > "$TMP/list" 2> "$TMP/err" || { cat "$TMP/err"; die "plot of sparse data"; }
[ -s "$TMP/sp/pft-faults_cpu-scaling.png" ] || die "scaling plot with n=1 on one side"
grep -q 'fewer than 2 samples' "$TMP/sp/pft-faults_cpu-scaling.gp" || die "n=1: the change panel should say why it is empty"
[ ! -e "$TMP/sp/pft-faults_cpu-change.png" ] || die "no change chart without a computable change"
[ -s "$TMP/sp/aim9-ops_per_sec-box.png" ] || die "a metric only the baseline has is still drawn"

# ---- labels are text, not gnuplot syntax: quotes, backslash, %, @, _{} ----
odd='base "q" \ 50% @x_{y}'
"$MMB" import --name "$odd" "$FIX/base.csv" >/dev/null
"$MMB" plot --out "$TMP/odd" --workload aim9 "$odd" fork-batching > /dev/null 2> "$TMP/err" ||
	{ cat "$TMP/err"; die "plot with an odd label"; }
grep -qF 'title "base \"q\" \\ 50% @x_{y}"' "$TMP/odd/aim9-ops_per_sec-box.gp" || die "label not quoted for gnuplot"
grep -q '^set termoption noenhanced' "$TMP/odd/aim9-ops_per_sec-box.gp" || die "labels must be literal (noenhanced)"

# ---- errors ----
set +e
"$MMB" plot --out "$TMP/x" v6.8-rc1 no-such-kernel 2> "$TMP/err"; rc=$?
[ $rc = 2 ] || die "unknown label: exit $rc, expected 2"
grep -q "no-such-kernel" "$TMP/err" || die "unknown label not named"
"$MMB" plot --out "$TMP/x" --format gif v6.8-rc1 fork-batching 2> "$TMP/err"; rc=$?
[ $rc = 2 ] && grep -q -- "--format 'gif'" "$TMP/err" || die "bad --format: exit $rc"
"$MMB" plot --out "$TMP/x" --bogus v6.8-rc1 fork-batching 2> "$TMP/err"; rc=$?
# one error naming it, then the usage made from plot's option table
[ $rc = 2 ] && [ "$(grep -c '^error:' "$TMP/err")" = 1 ] && grep -q -- "^error: .*--bogus" "$TMP/err" &&
	grep -q -- '^usage: mmbench plot .*\[--out DIR\]' "$TMP/err" ||
	die "unknown option: exit $rc, want one error naming it and the usage: $(cat "$TMP/err")"
"$MMB" plot v6.8-rc1 fork-batching --out 2> "$TMP/err"; rc=$?
[ $rc = 2 ] && grep -q -- "option --out needs a value" "$TMP/err" || die "--out without a value: exit $rc"
"$MMB" plot --out "$TMP/x" v6.8-rc1 2> "$TMP/err"; rc=$?
[ $rc = 2 ] || die "one label: exit $rc, expected 2"
"$MMB" plot --out "$TMP/x" --workload nope v6.8-rc1 fork-batching 2> "$TMP/err"; rc=$?
[ $rc = 2 ] && grep -q "nope" "$TMP/err" || die "unknown workload: exit $rc"

# gnuplot missing: one clear error naming the fix, nothing written
MMBENCH_GNUPLOT=$TMP/no/gnuplot "$MMB" plot --out "$TMP/m" v6.8-rc1 fork-batching > "$TMP/out" 2> "$TMP/err"; rc=$?
[ $rc = 1 ] || die "gnuplot missing: exit $rc, expected 1"
[ "$(grep -c '^error:' "$TMP/err")" = 1 ] || { cat "$TMP/err"; die "expected exactly one error line"; }
grep -q "gnuplot-nox" "$TMP/err" || die "the error should say how to install gnuplot"
[ -z "$(ls -A "$TMP/m" 2>/dev/null)" ] || die "files left behind without gnuplot: $(ls -A "$TMP/m")"
[ ! -s "$TMP/out" ] || die "nothing should be listed on stdout"

# gnuplot failing: its message is shown, no partial files
cat > "$TMP/badgp" <<'EOS'
#!/bin/sh
# works for the version check, fails on a real script
script=$(cat)
case $script in *GPVAL_VERSION*|*GPVAL_TERMINALS*) exec gnuplot -e "$script" ;; esac
echo '         line 7: unknown terminal type boom' >&2
exit 1
EOS
chmod +x "$TMP/badgp"
mkdir "$TMP/f"
touch "$TMP/f/keep.txt"
MMBENCH_GNUPLOT=$TMP/badgp "$MMB" plot --out "$TMP/f" v6.8-rc1 fork-batching > "$TMP/out" 2> "$TMP/err"; rc=$?
set -e
[ $rc = 1 ] || die "gnuplot failing: exit $rc, expected 1"
grep -q "unknown terminal type boom" "$TMP/err" || { cat "$TMP/err"; die "gnuplot's message not shown"; }
[ "$(grep -c '^error:' "$TMP/err")" = 1 ] || { cat "$TMP/err"; die "expected exactly one error line"; }
[ "$(ls -A "$TMP/f")" = keep.txt ] || die "partial files left: $(ls -A "$TMP/f")"

# the help text is the man page's text
"$MMB" help plot | grep -q -- "--format FMT" || die "mmbench help plot"
echo ok
