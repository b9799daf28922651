#!/bin/bash
# Issue 27 item 1: a newline in a name must never become a line of a
# gnuplot script or data file.  Names with control characters are refused
# where they come in (import, run, merge); names already in an older
# database are escaped on their way to gnuplot, so `plot` and the saved
# .gp run nothing and draw no point that was never measured.
. "$(dirname "$0")/../e2e-lib.sh"
P=$TMP/pwned
evil_metric=$'m\nsystem("touch '"$P"'.1")\n#'
evil_label=$'lab\n3 900 800 1000 0.0001 1'
csv() {	# FILE METRIC
	{
		echo "workload,metric,variant,iteration,value"
		for i in 1 2 3 4 5; do printf 'w,"%s",,%d,10%d\n' "${2//\"/\"\"}" "$i" "$i"; done
	} > "$1"
}
csv "$TMP/evil.csv" "$evil_metric"
set +e
"$MMB" import --name base "$TMP/evil.csv" > /dev/null 2> "$TMP/err"; rc=$?
set -e
[ $rc = 2 ] || die "import of a metric with a newline: exit $rc, want 2"
grep -qF 'control character' "$TMP/err" || die "no reason: $(cat "$TMP/err")"
grep -qF 'evil.csv:2' "$TMP/err" || die "no FILE:LINE: $(cat "$TMP/err")"
grep -qF 'm\nsystem' "$TMP/err" || die "name not shown escaped: $(cat "$TMP/err")"

csv "$TMP/ok.csv" m
set +e
"$MMB" import --name "$evil_label" "$TMP/ok.csv" > /dev/null 2> "$TMP/err"; rc=$?
set -e
[ $rc -ne 0 ] || die "import --name with a newline was accepted"
grep -qF 'lab\n3 900' "$TMP/err" || die "label not named escaped: $(cat "$TMP/err")"
[ "$(q "SELECT count(*) FROM kernels")" = 0 ] || die "a kernel was recorded"

export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
printf 'experiment: x\niterations: 1\nwarmup: 0\nworkloads:\n  - name: faulty\n' > "$TMP/c.yaml"
set +e
"$MMB" run "$TMP/c.yaml" --name $'two\nlines' -q > /dev/null 2> "$TMP/err"; rc=$?
set -e
[ $rc -ne 0 ] || die "run --name with a newline was accepted"
grep -qF 'two\nlines' "$TMP/err" || die "run: label not named escaped: $(cat "$TMP/err")"
[ "$(q "SELECT count(*) FROM runs")" = 0 ] || die "run recorded something"

# A database written before the check, or by hand: the names are in it.
"$MMB" import --name base "$TMP/ok.csv" > /dev/null
"$MMB" import --name new "$TMP/ok.csv" > /dev/null
cp "$MMBENCH_DB" "$TMP/src.db"
sqlite3 "$MMBENCH_DB" "UPDATE series SET metric = CAST(x'$(printf '%s' "$evil_metric" | od -An -tx1 | tr -d ' \n')' AS TEXT);
	UPDATE kernels SET label = CAST(x'$(printf '%s' "$evil_label" | od -An -tx1 | tr -d ' \n')' AS TEXT) WHERE label = 'new'"
cp "$MMBENCH_DB" "$TMP/evil.db"
# on the terminal such names are shown escaped: no line starts with the payload
for what in "list runs" "list kernels" "show 2"; do
	# shellcheck disable=SC2086
	"$MMB" $what > "$TMP/out" 2>&1 || die "$what failed: $(cat "$TMP/out")"
	grep -q '^3 900 800' "$TMP/out" && die "$what printed a name's newline raw"
	grep -qF 'lab\n3 900' "$TMP/out" || die "$what: the label is not shown escaped: $(cat "$TMP/out")"
done

# merge refuses it, naming the source
MMBENCH_DB=$TMP/target.db "$MMB" import --name other "$TMP/ok.csv" > /dev/null
set +e
MMBENCH_DB=$TMP/target.db "$MMB" merge "$TMP/evil.db" > /dev/null 2> "$TMP/err"; rc=$?
set -e
[ $rc = 2 ] || die "merge of a source with control characters: exit $rc, want 2"
grep -qF "cannot merge $TMP/evil.db" "$TMP/err" || die "source not named: $(cat "$TMP/err")"
grep -qF 'control character' "$TMP/err" || die "no reason: $(cat "$TMP/err")"
[ "$(sqlite3 "$TMP/target.db" "SELECT count(*) FROM runs")" = 1 ] || die "merge added runs"

if command -v gnuplot > /dev/null; then
	"$MMB" plot --out "$TMP/plots" base "$evil_label" > /dev/null 2> "$TMP/err" ||
		die "plot failed: $(cat "$TMP/err")"
	ls "$TMP"/plots/*.gp > /dev/null || die "no scripts"
	ls "$P".* 2> /dev/null && die "plot ran code from a metric name"
	grep -l '^system\|^3 900 800' "$TMP"/plots/*.gp "$TMP"/plots/*.dat && die "a name started a line"
	grep -qF 'lab\\n3 900' "$TMP"/plots/*.gp || die "the label is not in the scripts, escaped"
	# the saved script re-run by hand
	(cd "$TMP/plots" && for f in *.gp; do gnuplot "$f" > /dev/null 2>&1 || true; done)
	ls "$P".* 2> /dev/null && die "the saved .gp ran code"
	if "$MMB" help report > /dev/null 2>&1; then
		"$MMB" report --out "$TMP/report" base "$evil_label" > /dev/null 2>&1 || die "report failed"
		ls "$P".* 2> /dev/null && die "report ran code"
	fi
else
	echo "gnuplot not installed: plot not exercised"
fi
echo ok
