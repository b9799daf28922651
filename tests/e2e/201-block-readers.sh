#!/bin/bash
# Issue 42 item 9 and two smaller ones: every reader refuses a sample
# block compare refuses.  A zero-length block (an empty BLOB reads back as
# no pointer) was read as a block of no samples by the samples view, the
# sqlite3 extension and `show` (exit 0, a row missing); `export --format
# json` passed a corrupt block on byte for byte; `list runs` and `list
# kernels` printed a block's n however a file set it.
. "$(dirname "$0")/../e2e-lib.sh"
cd "$TMP"
printf 'workload,metric,variant,iteration,value\nw,m,,1,1.5\nw,m,,2,1.6\nw,k,,1,1\n' > a.csv
"$MMB" -q import --db a.db --name x a.csv
"$MMB" -q import --db a.db --name y a.csv
[ "$(command sqlite3 a.db "SELECT count(*) FROM sample_blocks WHERE run_id = 1")" = 2 ] ||
	die "the import did not make two blocks"
blk=$(command sqlite3 a.db "SELECT id FROM sample_blocks WHERE run_id = 1 AND n = 1")

refuses() {	# DB WHAT: every reader fails on DB naming the block's fault
	local db=$1 what=$2 out
	for cmd in "show 1" "compare x y" "export" "export --format json" "list runs" "list kernels"; do
		# shellcheck disable=SC2086
		if "$MMB" $cmd --db "$db" > out 2> err; then
			die "$what: '$cmd' exit 0: $(head -c 300 out)"
		fi
		grep -q "$3" err || die "$what: '$cmd' does not say why: $(cat err)"
	done
	out=$(sqlite3 "$db" "SELECT count(*) FROM samples WHERE run_id = 1" 2>&1) &&
		die "$what: the samples view (extension) read $out samples"
	echo "$out" | grep -q "$3" || die "$what: the extension does not say why: $out"
}

# a zero-length block
cp a.db z.db
command sqlite3 z.db "UPDATE sample_blocks SET data = zeroblob(0) WHERE id = $blk"
refuses z.db "empty block" "no data"
# and empty text (an old file's JSON block)
cp a.db t.db
command sqlite3 t.db "UPDATE sample_blocks SET data = '' WHERE id = $blk"
refuses t.db "empty text block" "no data"

# a block whose n is not its count
cp a.db n.db
command sqlite3 n.db "UPDATE sample_blocks SET n = 999 WHERE id = $blk"
refuses n.db "n 999" "differs from its n"
"$MMB" list runs --db n.db 2>&1 | grep -q 999 && die "list runs printed the crafted count"

# a block cut short: export --format json refuses it as the others do
cp a.db c.db
command sqlite3 c.db "UPDATE sample_blocks SET data = substr(data, 1, length(data) - 3) WHERE id = $blk"
refuses c.db "cut block" "lengths that do not add up"

# the sound file reads as before
"$MMB" list runs --db a.db > list.out || die "list runs of a sound file failed"
awk '$1 == 1 { print $9 }' list.out | grep -qx 3 || die "run 1 should count 3 samples: $(cat list.out)"
"$MMB" -q export --format json --db a.db > a.json || die "export --format json of a sound file failed"
"$MMB" show 1 --db a.db > /dev/null || die "show of a sound file failed"
[ "$(sqlite3 a.db "SELECT count(*) FROM samples")" = 6 ] || die "the samples view lost samples"
echo "ok"
