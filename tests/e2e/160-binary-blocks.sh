#!/bin/bash
# Issue 31 item 1: compare reads a sample block packed as binary (db/block.h)
# exactly as the JSON block it replaces, and refuses a hostile binary block
# (bad magic/version/coding, lengths, n, NaN/inf) with one error naming it.
. "$(dirname "$0")/../e2e-lib.sh"
cd "$TMP"
printf 'workload,metric,variant,iteration,value\nw,m,,1,1\nw,m,,2,2\nw,m,,3,3\n' > a.csv
printf 'workload,metric,variant,iteration,value\nw,m,,1,2\nw,m,,2,3\nw,m,,3,4\n' > b.csv
"$MMB" -q import --db j.db --name base a.csv
"$MMB" -q import --db j.db --name new b.csv
for f in text csv json; do
	"$MMB" compare --db j.db --format "$f" base new > "json.$f" || die "compare --format $f of JSON blocks"
done
# header: "MMBK", version 1, iterations as first + step, seqs all 0, n = 3
hdr=4D4D424B01020100030000000100000001000000
one=000000000000F03F two=0000000000000040 three=0000000000000840 four=0000000000001040
cp j.db b.db
sqlite3 b.db "UPDATE sample_blocks SET data = x'$hdr$one$two$three' WHERE run_id = 1;
	UPDATE sample_blocks SET data = x'$hdr$two$three$four' WHERE run_id = 2"
[ "$(sqlite3 b.db "SELECT count(*) FROM sample_blocks WHERE typeof(data) = 'blob'")" = 2 ] ||
	die "the blocks are not binary"
for f in text csv json; do
	"$MMB" compare --db b.db --format "$f" base new > "bin.$f" || die "compare --format $f of binary blocks"
	cmp -s "json.$f" "bin.$f" || die "--format $f differs: $(diff "json.$f" "bin.$f")"
done

refused() {	# WHAT MESSAGE HEX-OF-RUN-1's-BLOCK
	local rc=0
	cp j.db h.db
	sqlite3 h.db "UPDATE sample_blocks SET data = x'$3' WHERE run_id = 1"
	timeout 300 "$MMB" compare --db h.db base new > out 2> err || rc=$?
	[ $rc = 1 ] || die "$1: exit $rc, expected 1: $(cat err)"
	grep -qF "sample block 1 is not a valid block: $2" err || die "$1: no '$2' in: $(cat err)"
	[ "$(wc -l < err)" = 1 ] || die "$1: more than one line: $(cat err)"
}
refused "version 9" "an unknown format version" "4D4D424B09020100030000000100000001000000$one$two$three"
refused "coding 7" "an unknown iteration or seq coding" "4D4D424B01070100030000000100000001000000$one$two$three"
refused "a value short" "lengths that do not add up" "$hdr$one$two"
refused "a value long" "lengths that do not add up" "$hdr$one$two$three$four"
refused "n 4 in the header" "a sample count that differs from its n" "4D4D424B01020100040000000100000001000000$one$two$three$four"
refused "NaN" "a value that is not a finite number" "$hdr${one}000000000000F87F$three"
refused "+inf" "a value that is not a finite number" "$hdr${one}000000000000F07F$three"
refused "a short header" "a header shorter" "4D4D424B0102"
refused "no magic" "a BLOB without the MMBK header" "00$hdr$one$two$three"
refused "no magic, no NUL" "a BLOB without the MMBK header" "5B5B312C302C315D5D"
echo ok
