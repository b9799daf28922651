#!/bin/bash
# Issue 31 item 1: the runner's samples end up in blocks.  Each iteration
# still commits a sample_values row per sample (kill -9 loses at most the
# iteration in flight: e2e 12); when a run ends its rows are packed into a
# block per series (db_run_pack(), schema migration 11).  A block names
# iterations by number, so the disturbed marks and interference levels
# reach compare and show as they did through the rows' iteration ids:
# the same database unpacked back into rows (by plain sqlite3, through the
# samples view) compares, shows and exports the same.  Rows a reader could
# not place by number (one workload listed twice) stay rows.
. "$(dirname "$0")/../e2e-lib.sh"
cd "$TMP"
cat > p.yaml <<EOC
experiment: packed
iterations: 4
warmup: 1
workloads:
  - name: pft
    params: { size: 16M, clients: [1, 2], mode: threads }
  - name: ebizzy
    iterations: 2
    params: { threads: 2, duration: 1s }
EOC
for l in base new base new; do
	run --db r.db --name $l p.yaml
	[ $rc = 0 ] || die "run $l failed: $(cat err)"
done
n_all=$(sqlite3 r.db "SELECT sum(n) FROM sample_blocks")
[ "$(sqlite3 r.db "SELECT count(*) FROM sample_values")" = 0 ] || die "the ended runs kept rows"
[ "${n_all:-0}" -gt 0 ] || die "no blocks"
# ebizzy reports a value per thread: seq 0 and 1 in one block
[ "$(sqlite3 r.db "SELECT count(*) FROM samples WHERE seq = 1")" -gt 0 ] || die "per-thread samples lost"
# a block a series and run, 8 bytes a value and a small header
per=$(sqlite3 r.db "SELECT sum(length(data)) / sum(n) FROM sample_blocks")
[ "$per" -le 16 ] || die "$per bytes a sample in the blocks"

# the same marks in both files: iteration 2 disturbed, levels on the rest
sqlite3 r.db "UPDATE iterations SET disturbed = 'marked by e2e 199', interference = 0.3
	WHERE warmup = 0 AND iteration = 2 AND run_id IN (1, 2);
	UPDATE iterations SET interference = 0.01 * iteration WHERE warmup = 0 AND disturbed IS NULL"
cp r.db u.db
# unpacked: the view's iteration_id is the iteration each block names by number
sqlite3 u.db "INSERT INTO sample_values (run_id, iteration_id, series_id, iteration, seq, value)
	SELECT run_id, iteration_id, series_id, iteration, seq, value FROM samples
	WHERE id >= 4611686018427387904 ORDER BY id;
	DELETE FROM sample_blocks"
[ "$(sqlite3 u.db "SELECT count(*) FROM sample_values WHERE iteration_id IS NULL")" = 0 ] ||
	die "the view left block samples without their iteration"
[ "$(sqlite3 u.db "SELECT count(*) FROM sample_values")" = "$n_all" ] || die "unpacking lost samples"

for o in "" "--keep-disturbed" "--format csv" "--format json" "--format mmtests" "--verbose"; do
	# shellcheck disable=SC2086
	"$MMB" compare --db r.db $o base new > r.out 2>&1; a=$?
	# shellcheck disable=SC2086
	"$MMB" compare --db u.db $o base new > u.out 2>&1; b=$?
	[ $a = $b ] && cmp -s r.out u.out || die "compare $o: blocks (rc $a) and rows (rc $b) differ: $(diff u.out r.out | head)"
done
grep -q "disturbed" r.out || die "the marks did not reach compare"
for r in 1 2; do
	"$MMB" show --db r.db $r > r.out
	"$MMB" show --db u.db $r > u.out
	cmp -s r.out u.out || die "show $r differs: $(diff u.out r.out | head)"
done
grep -q "marked by e2e 199" r.out || die "show lost the disturbed mark"
"$MMB" list runs --db r.db > r.out
"$MMB" list runs --db u.db > u.out
cmp -s r.out u.out || die "list runs differs: $(diff u.out r.out)"
"$MMB" export --db r.db 2>/dev/null | sort > r.csv
"$MMB" export --db u.db 2>/dev/null | sort > u.csv
cmp -s r.csv u.csv || die "export differs: $(diff u.csv r.csv | head)"

# a writer opening the unpacked file packs it again: the same comparison
"$MMB" rm --db u.db --yes 9999 2>/dev/null && die "rm 9999 succeeded"
[ "$(sqlite3 u.db "SELECT count(*) FROM sample_values")" = 0 ] || die "the next writer did not pack"
"$MMB" compare --db r.db base new > r.out 2>&1 || true
"$MMB" compare --db u.db base new > u.out 2>&1 || true
cmp -s r.out u.out || die "repacked file compares differently: $(diff u.out r.out | head)"

# a run whose rows a block refuses (an infinite value, crafted) keeps them,
# said once, and does not hold up the runs after it
cp r.db v.db
sqlite3 v.db "INSERT INTO sample_values (run_id, iteration_id, series_id, iteration, seq, value)
	SELECT run_id, iteration_id, series_id, iteration, seq, value FROM samples
	WHERE id >= 4611686018427387904 ORDER BY id;
	DELETE FROM sample_blocks;
	UPDATE sample_values SET value = 1e999 WHERE id = (SELECT min(id) FROM sample_values)"
"$MMB" rm --db v.db --yes 9999 2> v.err && die "rm 9999 succeeded"
grep -q "^warning: .*keep a row per sample" v.err || die "no warning for the unpackable run: $(cat v.err)"
[ "$(sqlite3 v.db "SELECT group_concat(DISTINCT run_id) FROM sample_values")" = 1 ] ||
	die "rows left: runs $(sqlite3 v.db "SELECT group_concat(DISTINCT run_id) FROM sample_values")"

# one workload listed twice: both number their iterations 1..N, so a block
# could not tell them apart; those rows stay rows and read as before
cat > twice.yaml <<EOC
experiment: twice
iterations: 2
warmup: 0
workloads:
  - name: pft
    params: { size: 16M, clients: 1, mode: threads }
  - name: pft
    params: { size: 16M, clients: 1, mode: threads }
EOC
run --db t.db --name x twice.yaml
[ $rc = 0 ] || die "the twice run failed: $(cat err)"
[ "$(sqlite3 t.db "SELECT count(*) FROM sample_values")" -gt 0 ] || die "ambiguous rows were packed"
[ "$(sqlite3 t.db "SELECT count(*) FROM samples")" = "$(sqlite3 t.db "SELECT count(*) FROM sample_values")" ] ||
	die "the twice run is partly packed"
"$MMB" compare --db t.db --keep-disturbed x x > /dev/null 2>&1 || die "compare of the twice run failed"

# rm of a packed run takes its blocks with it
"$MMB" rm --db r.db --yes 1 > /dev/null 2>&1 || die "rm 1 failed"
[ "$(sqlite3 r.db "SELECT count(*) FROM sample_blocks WHERE run_id = 1")" = 0 ] || die "rm left run 1's blocks"
echo "ok"
