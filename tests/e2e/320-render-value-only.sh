#!/bin/bash
# e2e: the renderers only format the comparison value (issue 44 items 1
# and 2).  No file of harness/render includes a db/ header or reaches
# through a comparison row into its db row (row->q); the value carries
# what a layout prints (compare_what, the labels, compare_run, each
# machine's mpart_machine), so the layouts name no query_ type.  A
# p-value's text is made in one place, fmt_p() in harness/base/fmtnum.c:
# no other file of the harness has the table's "%.1e" or a "p = %.2g".
. "$(dirname "$0")/../e2e-lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
for h in db/*.h; do
	h=${h#db/}
	if grep -nE "^#include [\"<]$h[\">]" harness/render/*.[ch] > "$TMP/hit"; then
		die "a renderer includes the db/ header $h: $(cat "$TMP/hit")"
	fi
done
if grep -nE '(->|\.)q->|row->q\b|rows\[[^]]*\]\.q\b' harness/render/*.[ch] > "$TMP/hit"; then
	die "a renderer reads a db row through the comparison row: $(cat "$TMP/hit")"
fi
# the layouts (and the machines of --by machine) read the value, not the query set
if grep -nE '\bquery_[a-z]+|->qs\b' harness/render/render*.c harness/render/report-html.c > "$TMP/hit"; then
	die "a layout reads the query set or a query_ type: $(cat "$TMP/hit")"
fi
if grep -rn --include='*.c' '"%\.1e"\|%\.1e"' harness plot | grep -v '^harness/base/fmtnum.c:' > "$TMP/hit"; then
	die "a p-value formatted outside fmt_p(): $(cat "$TMP/hit")"
fi
if grep -rnE --include='*.c' '\b[pq] ?= ?%\.2g|q=%\.2g' harness plot > "$TMP/hit"; then
	die "a p-value formatted outside fmt_p(): $(cat "$TMP/hit")"
fi
if grep -rnE --include='*.c' '^(static )?[a-z ]*\*? ?(repro_)?fmt_p\(' harness plot |
	grep -v '^harness/base/fmtnum.c:' > "$TMP/hit"; then
	die "a second p-value formatter: $(cat "$TMP/hit")"
fi
echo ok
