#!/bin/bash
# Renderers are one table (the DEFINE_RENDERER lines of harness/render/):
# the formats an error lists are the table's, compare's help and man page
# name the same list, ab refuses an unknown format with the same list, and every format renders the same
# comparison (and its --by machine form) without error.
. "$(dirname "$0")/../e2e-lib.sh"
SRC=${MMBENCH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FIX=$SRC/tests/fixtures/compare

set +e
"$MMB" compare --db "$TMP/x.db" --format bogus a b > /dev/null 2> "$TMP/err"; rc=$?
set -e
[ $rc = 2 ] || die "unknown format: exit $rc, expected 2"
list=$(sed -n "s/.*unknown format 'bogus' (formats: \(.*\))$/\1/p" "$TMP/err")
[ -n "$list" ] || die "no format list in: $(cat "$TMP/err")"
table=$("$SRC/tools/renderer-list.sh" names)
[ "$list" = "$(echo "$table" | sed 's/|/, /g')" ] || die "formats: $list, the DEFINE_RENDERER lines: $table"
case $list in text,*) ;; *) die "text (compare's default) is not first: $list" ;; esac
help=$("$MMB" help compare | sed -n 's/.*\[--format \([a-z|]*\)\].*/\1/p' | head -1)
[ "$help" = "$(echo "$list" | sed 's/, /|/g')" ] ||
	die "compare's help lists '$help', the table '$list'"
man=$(sed -n 's/.*\[\\-\\-format \([a-z|]*\)\].*/\1/p' "$SRC/docs/man/mmbench-compare.1" | head -1)
[ "$man" = "$help" ] || die "mmbench-compare.1 lists '$man', the help '$help'"

set +e
"$MMB" ab --base-name a --new-name b --format bogus "$TMP/x.yaml" > /dev/null 2> "$TMP/err"; rc=$?
set -e
[ $rc = 2 ] || die "ab --format bogus: exit $rc"
grep -qF "ab: unknown format 'bogus' (formats: $list)" "$TMP/err" || die "ab: $(cat "$TMP/err")"

DB=$TMP/r.db
"$MMB" -q import --db "$DB" --name base "$FIX/aim9-base.csv"
"$MMB" -q import --db "$DB" --name new "$FIX/aim9-new.csv"
for f in $(echo "$list" | tr -d ,); do
	"$MMB" compare --db "$DB" --format "$f" base new > "$TMP/out.$f" 2> "$TMP/err" ||
		die "--format $f failed: $(cat "$TMP/err")"
	[ -s "$TMP/out.$f" ] || die "--format $f printed nothing"
	"$MMB" compare --db "$DB" --by machine --format "$f" base new > "$TMP/bym.$f" 2> "$TMP/err" ||
		die "--by machine --format $f failed: $(cat "$TMP/err")"
	[ -s "$TMP/bym.$f" ] || die "--by machine --format $f printed nothing"
done
echo ok
