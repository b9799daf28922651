#!/bin/bash
# import: CSV (any column order, RFC 4180 quoting, CRLF) and lkp matrix.json;
# a bad row names FILE:LINE and nothing is imported; compare's label errors.
set -u
MMB=$MMBENCH_BUILD/mmbench
FIX=$(cd "$(dirname "$0")/../fixtures/compare" && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
DB=$W/i.db
fail=0
die() { echo "FAIL: $*"; fail=1; }
# the samples view needs mmb_samples(), loaded as docs/store.md says
count() { sqlite3 -cmd ".load $MMBENCH_BUILD/sqlite/mmbsamples" "$DB" "$1"; }

"$MMB" -q import --db "$DB" --name base "$FIX/aim9-base.csv" || die "good CSV refused"
[ "$(count 'select count(*) from samples')" = 6 ] || die "6 samples expected"
[ "$(count "select accel || ',' || status from runs")" = "import,complete" ] || die "run row"
[ "$(count 'select config_path from runs')" = "$FIX/aim9-base.csv" ] || die "config_path"
# packed: one block per series, no iterations rows; list still counts both
[ "$(count "select count(*) || ',' || sum(n) from sample_blocks")" = "1,6" ] || die "one block of 6"
[ "$(count 'select count(*) from iterations')" = 0 ] || die "imported runs have no iterations rows"
"$MMB" list runs --db "$DB" | awk '$1 == 1 { ok = ($6 == 6 && $9 == 6) } END { exit !ok }' ||
	die "list runs: 6 iterations and 6 samples expected"

# quoting, CRLF line ends, columns in any order, embedded comma/quote/newline
printf 'value,"iteration",workload,metric,variant,better,unit\r\n' > "$W/q.csv"
printf '1.5,1,"my ""wl""",m1,"a=1,b=2",lower,"s"\r\n' >> "$W/q.csv"
printf '2.5,2,"my ""wl""",m1,"a=1,b=2",,s\r\n' >> "$W/q.csv"
printf '3.5,1,w2,"multi,line",,,\r\n' >> "$W/q.csv"
"$MMB" -q import --db "$DB" --name quoted "$W/q.csv" || die "quoted CSV refused"
[ "$(count "select count(*) from samples where workload = 'my \"wl\"' and variant = 'a=1,b=2' and better = -1 and unit = 's'")" = 2 ] ||
	die "quoted fields not unquoted"
[ "$(count "select count(*) from samples where metric = 'multi,line' and better = 1")" = 1 ] ||
	die "comma inside quotes / default direction"
# a newline inside quotes is parsed, and refused: names hold no control characters
printf 'workload,metric,variant,iteration,value\nw2,"multi\nline",,1,3.5\n' > "$W/nl.csv"
rc=0
"$MMB" -q import --db "$DB" --name nl "$W/nl.csv" 2> "$W/err" || rc=$?
[ $rc = 2 ] && grep -qF "nl.csv:2: metric 'multi\\nline': control character" "$W/err" ||
	die "a newline in a quoted name: exit $rc, $(cat "$W/err")"

# values JSON cannot hold as written are stored re-printed, same number
printf 'workload,metric,variant,iteration,value\nw,odd,,1,+5\nw,odd,,2,.5\nw,odd,,3,007\nw,odd,,4,8e0\nw,odd,,5, -2.5e1 \nw,odd,,6,0.1\n' > "$W/odd.csv"
"$MMB" -q import --db "$DB" --name odd "$W/odd.csv" || die "odd number spellings refused"
[ "$(count "select group_concat(value, ' ') from (select value from samples where metric = 'odd' order by id)")" = "5.0 0.5 7.0 8.0 -25.0 0.1" ] ||
	die "odd numbers not read back exactly: $(count "select group_concat(value, ' ') from samples where metric = 'odd'")"

before=$(count 'select count(*) from samples')||true
kbefore=$(count 'select count(*) from kernels')
rbefore=$(count 'select count(*) from runs')
bad() {	# expected-message, file-content
	printf '%b' "$2" > "$W/bad.csv"
	out=$("$MMB" import --db "$DB" --name broken "$W/bad.csv" 2>&1)
	rc=$?
	[ $rc -eq 2 ] || die "exit $rc (want 2) for: $1"
	echo "$out" | grep -qF "$1" || die "message '$1' missing in: $out"
}
bad "bad.csv:3: value 'x' is not a finite number" 'workload,metric,variant,iteration,value\nw,m,,1,1\nw,m,,2,x\n'
bad "bad.csv:2: value 'nan' is not a finite number" 'workload,metric,variant,iteration,value\nw,m,,1,nan\n'
# one reading of a written number (issue 42): no hex float, no underflow read as 0
bad "bad.csv:2: value '0x1p3' is not a finite number: a hex number" 'workload,metric,variant,iteration,value\nw,m,,1,0x1p3\n'
bad "bad.csv:3: value '1e-400' is not a finite number: too small: it would read as 0" 'workload,metric,variant,iteration,value\nw,m,,1,1\nw,m,,2,1e-400\n'
bad "bad.csv:2: iteration '-1' is not a non-negative integer" 'workload,metric,variant,iteration,value\nw,m,,-1,1\n'
bad "bad.csv:2: 4 fields, the header has 5" 'workload,metric,variant,iteration,value\nw,m,,1\n'
bad "bad.csv:1: unknown column 'vlaue'" 'workload,metric,variant,iteration,vlaue\n'
bad "bad.csv:1: header lacks the 'iteration' column" 'workload,metric,variant,value\nw,m,,1\n'
bad "bad.csv:2: better is 'up'" 'workload,metric,variant,iteration,value,better\nw,m,,1,1,up\n'
bad "bad.csv:3: metric 'm' is lower-is-better here but higher-is-better on line 2" \
	'workload,metric,variant,iteration,value,better\nw,m,,1,1,higher\nw,m,,2,1,lower\n'
bad "bad.csv:2: variant 'a=1,clients' is neither k=v[,k=v...] nor one bare name" 'workload,metric,variant,iteration,value\nw,m,"a=1,clients",1,1\n'
bad "bad.csv:2: empty workload" 'workload,metric,variant,iteration,value\n,m,,1,1\n'
bad "bad.csv:2: unterminated quoted field" 'workload,metric,variant,iteration,value\n"w,m,,1,1\n'
bad "no samples after the header" 'workload,metric,variant,iteration,value\n'
bad "bad.csv:1: empty file" ''
[ "$(count 'select count(*) from samples')" = "$before" ] || die "a bad file left samples behind"
[ "$(count 'select count(*) from kernels')" = "$kbefore" ] || die "a bad file left a kernel behind"
[ "$(count 'select count(*) from runs')" = "$rbefore" ] || die "a bad file left a run behind"

# a late error rolls back everything before it (one transaction)
{ echo 'workload,metric,variant,iteration,value'; for i in $(seq 1 5000); do echo "w,m,,$i,$i.5"; done; echo 'w,m,,5001,oops'; } > "$W/late.csv"
"$MMB" import --db "$DB" --name late "$W/late.csv" 2>"$W/err" && die "late bad row accepted"
grep -qF "late.csv:5002:" "$W/err" || die "late error line: $(cat "$W/err")"
[ "$(count "select count(*) from kernels where label = 'late'")" = 0 ] || die "late label left behind"

# a bulk load (>= 100k rows into a smaller table) rebuilds the sample
# indexes at the end; a failure must bring them back with the rollback
idx() { sqlite3 "$DB" "select group_concat(name, ' ') from (select name from sqlite_master where type = 'index' and tbl_name = 'samples' order by name)"; }
want_idx=$(idx)
{ echo 'workload,metric,variant,iteration,value'; seq 1 120000 | sed 's/.*/bulk,m,,&,&.25/'; echo 'bulk,m,,0,bad'; } > "$W/bulk.csv"
"$MMB" import --db "$DB" --name bulk "$W/bulk.csv" 2>"$W/err" && die "bulk bad row accepted"
grep -qF "bulk.csv:120002: value 'bad'" "$W/err" || die "bulk error: $(cat "$W/err")"
[ "$(idx)" = "$want_idx" ] || die "indexes after failed bulk import: $(idx)"
sed -i '$d' "$W/bulk.csv"
"$MMB" -q import --db "$DB" --name bulk "$W/bulk.csv" || die "bulk import refused"
[ "$(idx)" = "$want_idx" ] || die "indexes after bulk import: $(idx)"
[ "$(count "select count(*) from samples where workload = 'bulk'")" = 120000 ] || die "bulk count"
sqlite3 "$DB" 'pragma integrity_check' | grep -qx ok || die "integrity after bulk import"

# lkp matrix.json: testcase.stat split, direction from the built-in table
"$MMB" -q import --db "$DB" --name mx "$FIX/aim9-new.matrix.json" || die "matrix.json refused"
[ "$(count "select count(*) || ':' || min(better) from samples s join runs r on r.id = s.run_id join kernels k on k.id = r.kernel_id where k.label = 'mx' and workload = 'aim9' and metric = 'brk_test.ops_per_sec'")" = "6:1" ] ||
	die "matrix brk_test rows"
# lkp's <testcase>.time.* are monitor rows of the testcase's iterations (docs/monitors.md)
[ "$(count "select count(*) || ':' || min(i.workload) from monitors m join iterations i on i.id = m.iteration_id where m.source = 'time' and m.key = 'system_time'")" = "6:aim9" ] ||
	die "time.system_time should be a monitor row of aim9"
[ "$(count "select count(*) from samples where metric = 'time.system_time'")" = 0 ] ||
	die "time.system_time should not be a sample"
printf '{\n  "aim9.x": [1, 2],\n  "aim9.y": [1, "z"]\n}\n' > "$W/bad.json"
out=$("$MMB" import --db "$DB" --name badjson "$W/bad.json" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -qF "bad.json:3:17: stat 'aim9.y' run 1 is not a number" || die "matrix error: $rc $out"
printf '{"aim9.x": [1, 2' > "$W/trunc.json"
out=$("$MMB" import --db "$DB" --name badjson "$W/trunc.json" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -qF "trunc.json:1:" || die "truncated json: $rc $out"
printf '{"nodot": [1]}' > "$W/nodot.json"
"$MMB" import --db "$DB" --name badjson "$W/nodot.json" 2>&1 | grep -qF "not of the form <testcase>.<stat>" || die "nodot"
# a stat given twice, a NUL escape in a name, an array at the top: each an error at its place
printf '{\n  "aim9.x": [1, 2],\n  "aim9.x": [3]\n}\n' > "$W/dup.json"
out=$("$MMB" import --db "$DB" --name badjson "$W/dup.json" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -qF "dup.json:3:13: stat 'aim9.x' appears twice (first at line 2)" ||
	die "duplicate stat: $rc $out"
printf '{"aim9.x\\u0000y": [1]}' > "$W/nul.json"
out=$("$MMB" import --db "$DB" --name badjson "$W/nul.json" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -qF 'nul.json:1:9: \u0000 (NUL) in a string is not supported' ||
	die "NUL escape: $rc $out"
printf '\n [{"aim9.x": [1]}]\n' > "$W/array.json"
out=$("$MMB" import --db "$DB" --name badjson "$W/array.json" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -qF "array.json:2:2: expected an lkp matrix.json object" ||
	die "top-level array: $rc $out"
[ "$(count "select count(*) from kernels where label = 'badjson'")" = 0 ] || die "badjson left behind"

# usage errors
"$MMB" import --db "$DB" "$FIX/aim9-base.csv" 2>/dev/null; [ $? -eq 2 ] || die "missing --name not exit 2"
"$MMB" import --db "$DB" --name x 2>/dev/null; [ $? -eq 2 ] || die "missing FILE not exit 2"
"$MMB" import --db "$DB" --name x "$W/nonexistent" 2>/dev/null; [ $? -eq 2 ] || die "missing file not exit 2"
"$MMB" import --db "$DB" --bogus 2>/dev/null; [ $? -eq 2 ] || die "bad option not exit 2"

# compare: unknown label -> exit 2 listing the known ones; bad flags -> 2
out=$("$MMB" compare --db "$DB" base nosuch 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -qF "unknown kernel label 'nosuch'; known labels: base, quoted, odd, bulk, mx" ||
	die "unknown label: $rc $out"
"$MMB" compare --db "$DB" --format html base mx 2>/dev/null; [ $? -eq 2 ] || die "bad format"
"$MMB" compare --db "$DB" --test ttest base mx 2>/dev/null; [ $? -eq 2 ] || die "bad test"
"$MMB" compare --db "$DB" base 2>/dev/null; [ $? -eq 2 ] || die "one label"
"$MMB" compare --db "$W/none.db" a b 2>/dev/null; [ $? -eq 2 ] || die "missing db"
out=$("$MMB" compare --db "$DB" --metric nosuch base mx 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -qF "no metric 'nosuch' in these kernels' runs; metrics: base: brk_test.ops_per_sec" || die "empty filter: $rc $out"
# --last N pools only each label's newest N runs (what ab passes)
gen_runs() {	# mean seed -> 10 samples
	awk -v m="$1" -v s="$2" 'BEGIN { srand(s); print "workload,metric,variant,iteration,value";
		for (i = 1; i <= 10; i++) printf "w,last,,%d,%.3f\n", i, m + 10 * (rand() - 0.5) }'
}
LDB=$W/last.db
gen_runs 1200 1 > "$W/old.csv"; gen_runs 1000 2 > "$W/b.csv"; gen_runs 1000 3 > "$W/n.csv"
"$MMB" -q import --db "$LDB" --name lbase "$W/old.csv" &&
"$MMB" -q import --db "$LDB" --name lbase "$W/b.csv" &&
"$MMB" -q import --db "$LDB" --name lnew "$W/n.csv" || die "import for --last"
# pooled as iterations, the older run fakes a change; tested at the run level
# (the default) its spread is lbase's run-to-run variation, and drift says so
"$MMB" compare --db "$LDB" --unit iteration lbase lnew | grep -qF "verdict: no significant change" &&
	die "pooling an older run of lbase as iterations should have shown a change"
out=$("$MMB" compare --db "$LDB" lbase lnew)
grep -qF "verdict: no significant change" <<< "$out" && grep -qF "unit: run, 2 v 1" <<< "$out" &&
	grep -qF "drift: the runs of lbase disagree" <<< "$out" ||
	die "two runs of lbase that disagree: the run-level test and a drift line expected: $out"
"$MMB" compare --db "$LDB" --last 1 lbase lnew | grep -qF "verdict: no significant change" ||
	die "--last 1: only the newest runs, no change expected"
[ "$("$MMB" compare --db "$LDB" --last 1 --format csv lbase lnew | awk -F, 'NR > 1 { printf "%s=%s ", $6, $8 }')" = "lbase=10 lnew=10 " ] ||
	die "--last 1: n = 10 per label expected"
[ "$("$MMB" compare --db "$LDB" --format csv lbase lnew | awk -F, 'NR == 2 { print $8 }')" = 20 ] ||
	die "without --last both runs of lbase pool: n = 20"
"$MMB" compare --db "$LDB" --last 0 lbase lnew 2>/dev/null; [ $? -eq 2 ] || die "--last 0 not refused"
"$MMB" -q report --db "$LDB" --out "$W/lrep" --no-plots --last 1 lbase lnew > /dev/null ||
	die "report --last 1 failed"
grep -qE "runs +run 1 complete \(older: --last\), run 2 complete" "$W/lrep/report.txt" ||
	die "report --last does not mark the run it left out: $(grep runs "$W/lrep/report.txt")"

# same label twice is an A/A comparison: no significant change, and a warning
"$MMB" compare --db "$DB" base base 2> "$W/aa.err" | grep -qF "verdict: no significant change" ||
	die "base vs base"
grep -q "warning: label 'base' is given twice" "$W/aa.err" || die "no warning for base vs base"

# a mistyped label: the nearest is offered
"$MMB" compare --db "$DB" base bsae > /dev/null 2> "$W/typo.err" && die "a mistyped label compared"
grep -q "unknown kernel label 'bsae' (did you mean 'base'?)" "$W/typo.err" || die "no did-you-mean: $(cat "$W/typo.err")"

# mmtests' bare variants ("16" client processes) import untyped and compare
for l in b1 b2; do
	printf 'workload,metric,variant,iteration,value\nhackbench,time,16,1,1.0\nhackbench,time,16,2,1.1\nhackbench,time,16,3,1.05\n' > "$W/bare-$l.csv"
	"$MMB" -q import --db "$W/bare.db" --name "$l" "$W/bare-$l.csv" || die "bare variant '16' refused"
done
"$MMB" compare --db "$W/bare.db" b1 b2 | grep -qF "hackbench (16) time" || die "the bare variant is not shown"
exit $fail
