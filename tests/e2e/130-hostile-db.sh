#!/bin/bash
# Issue 27 items 5-8: a database from elsewhere is input.  A runs view over
# an endless recursive CTE with an INSTEAD OF trigger made merge and list
# runs spin for ever; readers and merge sources changed the file; values
# that are no numbers and NULL labels got in (--rename segfaulted).
. "$(dirname "$0")/../e2e-lib.sh"
cd "$TMP"
printf 'workload,metric,variant,iteration,value\nw,m,,1,1\nw,m,,2,2\nw,m,,3,3\n' > a.csv
"$MMB" import --db good.db --name base a.csv > /dev/null
sqlite3 good.db "PRAGMA journal_mode = DELETE" > /dev/null
"$MMB" import --db target.db --name other a.csv > /dev/null
hash() { sha256sum "$1" | cut -d' ' -f1; }
refused() {	# WHAT MESSAGE CMD...
	local what=$1 msg=$2 rc=0
	shift 2
	# the hang guard only: a refused file returns at once
	timeout 300 "$@" > out 2> err || rc=$?
	[ $rc != 124 ] || die "$what: hung"
	[ $rc != 0 ] || die "$what: accepted"
	[ $rc -lt 128 ] || die "$what: killed by a signal (exit $rc)"
	grep -qF "$msg" err || die "$what: no '$msg' in: $(cat err)"
}

# item 5: the endless view, a trigger, a table we do not know
cp good.db evil.db
sqlite3 evil.db "ALTER TABLE runs RENAME TO runs_real;
	CREATE VIEW runs AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)
	SELECT x AS id, 1 AS kernel_id, NULL AS machine_id, 'complete' AS status, x AS uuid FROM c;
	CREATE TRIGGER t INSTEAD OF UPDATE ON runs BEGIN SELECT 1; END;"
h=$(hash evil.db)
refused "list runs" "not a database mmbench wrote" "$MMB" list runs --db evil.db
refused "compare --db" "not a database mmbench wrote" "$MMB" compare --db evil.db base base
refused "merge" "evil.db: not a database mmbench wrote" "$MMB" merge --db target.db evil.db
[ "$(hash evil.db)" = "$h" ] || die "the hostile file was changed"
cp good.db trig.db
sqlite3 trig.db "CREATE TRIGGER t AFTER INSERT ON main.series BEGIN DELETE FROM samples; END;"
refused "merge (trigger)" "trigger t that mmbench never makes" "$MMB" merge --db target.db trig.db
[ "$(sqlite3 target.db 'SELECT count(*) FROM runs')" = 1 ] || die "target changed"

# item 6: a source (read-only, with a run of a dead process) is never changed
cp good.db ro.db
sqlite3 ro.db "UPDATE runs SET status = 'running', pid = 999999999, host = NULL,
	uuid = 'dead-run'"
chmod 0444 ro.db
h=$(hash ro.db)
"$MMB" list runs --db ro.db > out 2> err || die "list runs of a read-only DB: $(cat err)"
grep -q interrupted out || die "the dead run is not shown interrupted: $(cat out)"
"$MMB" merge --db target.db ro.db > out 2> err || die "merge of a read-only source: $(cat err)"
[ "$(hash ro.db)" = "$h" ] || die "a reader or merge changed the source"
[ ! -e ro.db-wal ] && [ ! -e ro.db-journal ] || die "a -wal or -journal was made"
[ "$(sqlite3 ro.db "SELECT status FROM runs")" = running ] || die "source run marked"

# items 7 and 8: rows that break the schema's invariants, named with the source
bad_source() {	# WHAT SQL MESSAGE [merge options]
	local what=$1 sql=$2 msg=$3
	shift 3
	cp good.db bad.db
	sqlite3 bad.db "$sql"
	refused "$what" "$msg" "$MMB" merge --db target.db "$@" bad.db
	grep -qF "cannot merge bad.db: " err || die "$what: the source is not named: $(cat err)"
	grep -qF "target.db" err && die "$what: the target is blamed: $(cat err)"
	[ "$(sqlite3 target.db 'SELECT count(*) FROM runs')" = 1 ] || die "$what: merged"
}
# import writes sample_blocks; a run writes sample_values rows like this one
sv="INSERT INTO sample_values (run_id, series_id, iteration, seq, value) VALUES (1, 1, 9, 0,"
bad_source "value 'abc'" "$sv 'abc')" "value is not a finite number ('abc')"
bad_source "value 1e309" "$sv 1e309)" "value is not a finite number"
bad_source "blob value" "$sv x'00')" "value is not a finite number"
bad_source "block value 1e999" "UPDATE sample_blocks SET data = '[[1,0,1e999]]', n = 1" "not a finite number"
# kernels.label is NOT NULL (a schema without it is refused): a run of no kernel row has none
bad_source "NULL label" "UPDATE runs SET kernel_id = 99" "has no kernel label"
bad_source "NULL label, --rename" "UPDATE runs SET kernel_id = 99" "has no kernel label" --rename base=x
bad_source "empty label" "UPDATE kernels SET label = ''" "has no kernel label"
bad_source "empty metric" "UPDATE series SET metric = ''" "has a NULL or empty name"
bad_source "block value" "UPDATE sample_blocks SET data = '[[1,0,\"x\"]]', n = 1" "not a finite number"
sqlite3 good.db "UPDATE sample_values SET value = 4.9e-324 WHERE iteration = 1"
sqlite3 good.db "UPDATE runs SET uuid = 'tiny'"
"$MMB" merge --db target.db good.db > out 2> err || die "4.9e-324 refused: $(cat err)"

# item 7 on the other ways in
printf 'workload,metric,variant,iteration,value\nw,m,,1,5\0junk\n' > nul.csv
refused "CSV 5\\0junk" "nul.csv:2" "$MMB" import --db target.db --name nul nul.csv
printf 'workload,metric,variant,iteration,value\nw,m,,1,4.9e-324\nw,m,,2,1e309\n' > big.csv
refused "CSV 1e309" "big.csv:3" "$MMB" import --db target.db --name big big.csv
printf 'workload,metric,variant,iteration,value\nw,m,,1,4.9e-324\n' > tiny.csv
"$MMB" import --db target.db --name tiny tiny.csv > /dev/null 2> err || die "4.9e-324 refused: $(cat err)"
"$MMB" export --db target.db --format json --label tiny > tiny.json
# the block is binary ({"blob":"HEX"}); an older export's JSON text block with a string value
sed 's/{"blob":"[0-9a-f]*"}/"[[1,0,\\"abc\\"]]"/' tiny.json > abc.json
grep -qF '\"abc\"' abc.json || die "could not plant a string value: $(cat tiny.json)"
refused "export JSON with \"abc\"" "not a finite number" "$MMB" import --db fresh.db abc.json

# item 13: a database path that is no regular file
refused "import --db /dev/null" "not a regular file" "$MMB" import --db /dev/null --name x a.csv
[ ! -e /dev/null-journal ] || die "/dev/null-journal made"
echo ok
