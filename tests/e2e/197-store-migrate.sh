#!/bin/bash
# Issue 31 item 1: a database of the old format (schema 8, made by main's
# code before blocks were binary: runner rows and JSON sample blocks)
# migrates in place, its blocks rewritten as binary, and compare prints the
# bytes main printed for it in text, csv and json; so does a half-converted
# file (a kill midway), which the next writer finishes; its two ended runs'
# runner rows are packed into blocks (migration 11).  The samples view
# still reads every sample; import writes binary blocks.
. "$(dirname "$0")/../e2e-lib.sh"
FIX=$(cd "$(dirname "$0")/../fixtures/store" && pwd)
cd "$TMP"
same() {	# DB WHAT
	for f in text csv json; do
		"$MMB" compare --db "$1" --keep-disturbed --format "$f" base new > "out.$f" 2>/dev/null ||
			die "$2: compare --format $f failed"
		cmp -s "out.$f" "$FIX/expected/old-v8.$f" ||
			die "$2: --format $f differs: $(diff "$FIX/expected/old-v8.$f" "out.$f" | head -20)"
	done
}
sq() { sqlite3 -batch -noheader "$@"; }
kinds() { sq "$1" "SELECT group_concat(k, ' ') FROM (SELECT DISTINCT typeof(data) AS k FROM sample_blocks ORDER BY 1)"; }

cp "$FIX/old-v8.db" old.db
[ "$(sq old.db 'PRAGMA user_version')" = 8 ] && [ "$(kinds old.db)" = text ] ||
	die "the fixture is not schema 8 with JSON blocks"
total="SELECT (SELECT count(*) FROM sample_values) + (SELECT sum(n) FROM sample_blocks)"
before=$(sq old.db "$total")
[ "$(sq old.db "SELECT count(*) FROM sample_values")" = 8 ] || die "the fixture has no runner rows"
# a reader migrates in memory only: the file stays as it was
same old.db "unmigrated (read in memory)"
cmp -s old.db "$FIX/old-v8.db" || die "compare changed the file"

# any writer migrates: rm of a run that is not there changes nothing else
"$MMB" rm --db old.db --yes 9999 2>/dev/null && die "rm 9999 succeeded"
[ "$(sq old.db 'PRAGMA user_version')" -ge 9 ] || die "not migrated"
[ "$(kinds old.db)" = blob ] || die "blocks left unconverted: $(kinds old.db)"
[ "$(sq old.db "$total")" = "$before" ] || die "sample count changed: $(sq old.db "$total"), was $before"
[ "$(sq old.db "SELECT count(*) FROM sample_values")" = 0 ] || die "the ended runs' rows were not packed"
[ "$(sq old.db "SELECT group_concat(run_id || ':' || n, ' ') FROM sample_blocks WHERE run_id <= 2")" = "1:4 2:4" ] ||
	die "runs 1 and 2 packed as $(sq old.db "SELECT group_concat(run_id || ':' || n, ' ') FROM sample_blocks WHERE run_id <= 2")"
same old.db "migrated"

# half converted: blocks above 6 back as the fixture's JSON text
cp "$FIX/old-v8.db" src.db
sq old.db "ATTACH 'src.db' AS o; UPDATE sample_blocks SET data =
	(SELECT data FROM o.sample_blocks x WHERE x.id = sample_blocks.id)
	WHERE id > 6 AND id IN (SELECT id FROM o.sample_blocks)"
[ "$(kinds old.db)" = "blob text" ] || die "no mixed file: $(kinds old.db)"
same old.db "half converted"
"$MMB" rm --db old.db --yes 9999 2>/dev/null && die "rm 9999 succeeded"
[ "$(kinds old.db)" = blob ] || die "the second writer did not finish: $(kinds old.db)"
same old.db "finished"

# the samples view reads binary blocks as the JSON ones (the view needs
# mmbench's mmb_samples(): compare its rows through merge's check instead)
"$MMB" export --db old.db > new.csv
"$MMB" export --db "$FIX/old-v8.db" > old.csv
cmp -s old.csv new.csv || die "export differs: $(diff old.csv new.csv | head)"

# merge of the old file into a new one lands binary blocks, same output
"$MMB" -q merge --db m.db "$FIX/old-v8.db"
[ "$(kinds m.db)" = blob ] || die "merge wrote $(kinds m.db) blocks"
same m.db "merged"

# plain sqlite3 reads the samples view with the extension make install installs
want=$(command sqlite3 "$FIX/old-v8.db" "SELECT count(*), sum(value), sum(iteration * 7 + seq) FROM samples")
got=$(command sqlite3 old.db ".load $MMBENCH_BUILD/sqlite/mmbsamples" \
	"SELECT count(*), sum(value), sum(iteration * 7 + seq) FROM samples")
[ "$got" = "$want" ] || die "samples view with the extension: '$got', want '$want'"
command sqlite3 old.db "SELECT count(*) FROM samples" 2>/dev/null && die "the view read without its function"

# import writes binary
printf 'workload,metric,variant,iteration,value\nw,m,,1,1.5\n' > a.csv
"$MMB" -q import --db i.db --name x a.csv
[ "$(kinds i.db)" = blob ] || die "import wrote $(kinds i.db) blocks"

# a version-10 file (fixtures/store/v10.db: the previous version's import
# of x and y) and a version-9 one (before migration 10's index) are read
# as they are: the same comparison and the files untouched
# (db_reader_min_version); the next writer migrates them
cp "$FIX/v10.db" v10.db
[ "$(command sqlite3 v10.db 'PRAGMA user_version')" = 10 ] || die "the fixture is not version 10"
"$MMB" compare --db v10.db x y > v10.out 2>&1 || die "compare of the v10 file failed: $(cat v10.out)"
cmp -s v10.db "$FIX/v10.db" || die "a reader changed the v10 file"
cp v10.db v9.db
command sqlite3 v9.db "CREATE INDEX sample_blocks_by_run ON sample_blocks(run_id);
	DROP INDEX sample_blocks_by_run_n; PRAGMA user_version = 9;"
sum=$(md5sum < v9.db)
"$MMB" compare --db v9.db x y > v9.out 2>&1 || die "compare of the v9 file failed"
cmp -s v9.out v10.out || die "a v9 file compares differently: $(diff v10.out v9.out)"
"$MMB" list runs --db v9.db > /dev/null || die "list runs of a v9 file failed"
[ "$(md5sum < v9.db)" = "$sum" ] || die "a reader changed the v9 file"
[ "$(command sqlite3 v9.db 'PRAGMA user_version')" = 9 ] || die "a reader migrated the v9 file"
"$MMB" -q import --db v9.db --name z a.csv
[ "$(command sqlite3 v9.db 'PRAGMA user_version')" -ge 11 ] || die "a writer left the file at version 9"
"$MMB" compare --db v9.db x y > v11.out 2>&1 || die "compare of the migrated file failed"
cmp -s v11.out v10.out || die "the migrated file compares differently: $(diff v10.out v11.out)"
echo "ok"
