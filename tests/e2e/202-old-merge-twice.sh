#!/bin/bash
# Issue 42 item 0: a file from before run uuids (schema 2,
# fixtures/store/old-v2.db: three runner runs, two imports with JSON
# blocks) is migrated in memory by every reader, and migration 4 gave its
# runs random uuids each time: merging it twice copied every run twice
# (compare then pooled each run twice).  Its runs are now named by a hash
# of what they recorded, the same in memory and in place, so merging,
# importing its export or merging its migrated copy again adds nothing.
# A version-10 file merges too (it failed: no such column x.order_key).
. "$(dirname "$0")/../e2e-lib.sh"
FIX=$(cd "$(dirname "$0")/../fixtures/store" && pwd)
cd "$TMP"
sq() { command sqlite3 -batch -noheader "$@"; }
cp "$FIX/old-v2.db" old.db
[ "$(sq old.db 'PRAGMA user_version')" = 2 ] || die "the fixture is not schema 2"
runs=$(sq old.db "SELECT count(*) FROM runs WHERE status <> 'running'")
samples=$(sq old.db "SELECT (SELECT count(*) FROM sample_values) + (SELECT sum(n) FROM sample_blocks)")
count() { sq "$1" "SELECT count(*) || ' ' || ((SELECT count(*) FROM sample_values) +
	(SELECT ifnull(sum(n), 0) FROM sample_blocks)) FROM runs"; }

"$MMB" merge --db m.db old.db 2> m1 || die "merge failed: $(cat m1)"
grep -q "$runs runs merged" m1 || die "first merge: $(cat m1)"
"$MMB" merge --db m.db old.db 2> m2 || die "second merge failed: $(cat m2)"
grep -q "0 runs merged (0 iterations, 0 samples), $runs already here" m2 ||
	die "the second merge added runs: $(cat m2)"
[ "$(count m.db)" = "$runs $samples" ] || die "m.db holds $(count m.db), want $runs $samples"
cmp -s old.db "$FIX/old-v2.db" || die "merge changed its source"

# the names are uuids, distinct, the same each time the file is read
[ "$(sq m.db "SELECT count(DISTINCT uuid) FROM runs WHERE uuid LIKE '________-____-8___-____-____________'")" = "$runs" ] ||
	die "runs lack distinct uuids: $(sq m.db 'SELECT uuid FROM runs')"

# an export of the old file, twice, imported: nothing new either
"$MMB" -q export --format json --db old.db > a.json
"$MMB" -q export --format json --db old.db > b.json
cmp -s a.json b.json || die "two exports of one file differ"
"$MMB" import --db m.db a.json 2> i1 || die "import failed: $(cat i1)"
"$MMB" import --db i.db a.json 2> /dev/null || die "import into a new file failed"
"$MMB" import --db i.db b.json 2> i2 || die "second import failed: $(cat i2)"
[ "$(count m.db)" = "$runs $samples" ] || die "importing the export added to m.db: $(count m.db)"
[ "$(count i.db)" = "$runs $samples" ] || die "importing the export twice: $(count i.db)"

# a writer migrates the file in place: its runs keep the names readers gave them
cp "$FIX/old-v2.db" w.db
"$MMB" rm --db w.db --yes 9999 2> /dev/null && die "rm 9999 succeeded"
[ "$(sq w.db 'PRAGMA user_version')" -ge 4 ] || die "the writer did not migrate"
"$MMB" merge --db m.db w.db 2> m3 || die "merge of the migrated copy failed: $(cat m3)"
grep -q "0 runs merged.*$runs already here" m3 || die "the migrated copy's runs are new: $(cat m3)"
[ "$(sq w.db 'SELECT group_concat(uuid) FROM (SELECT uuid FROM runs ORDER BY uuid)')" = \
  "$(sq m.db 'SELECT group_concat(uuid) FROM (SELECT uuid FROM runs ORDER BY uuid)')" ] ||
	die "in place and in memory named the runs differently"
# and its compare is the same from every copy
"$MMB" compare --db old.db base new > c1 2>&1 || die "compare of the old file failed: $(cat c1)"
"$MMB" compare --db m.db base new > c2 2>&1 || die "compare of the merged file failed: $(cat c2)"
cmp -s c1 c2 || die "the merged file compares differently: $(diff c1 c2 | head)"

# whatever the source's schema: a version-10 file (read as it is, without
# sample_blocks.order_key) merges, once
for i in 1 2; do
	"$MMB" merge --db m.db "$FIX/v10.db" 2> m10 || die "merge $i of the v10 file failed: $(cat m10)"
done
grep -q "0 runs merged.*already here" m10 || die "the v10 file merged twice: $(cat m10)"
"$MMB" compare --db "$FIX/v10.db" x y > c1 2>&1 || die "compare of the v10 file failed"
"$MMB" compare --db m.db x y > c2 2>&1 || die "compare of its merge failed: $(cat c2)"
cmp -s c1 c2 || die "the merged v10 runs compare differently: $(diff c1 c2 | head)"
echo "ok"
