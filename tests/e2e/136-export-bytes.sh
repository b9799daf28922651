#!/bin/bash
# Issue 27 item 16: `export --format json` is lossless.  Label bytes that
# are not UTF-8 came back as U+FFFD, and two labels k\xff and k\xfe (both
# "k\ufffd") failed to import.  Such text is exported as {"bytes":"HEX"}
# and imported back byte for byte; the file stays strict JSON.
. "$(dirname "$0")/../e2e-lib.sh"
cd "$TMP"
printf 'workload,metric,variant,iteration,value\nw,m\xb1,,1,1\nw,m\xb1,,2,2\n' > a.csv
"$MMB" import --name $'k\xff' a.csv > /dev/null
"$MMB" import --name $'k\xfe' a.csv > /dev/null
"$MMB" export --format json > all.json 2> /dev/null
if command -v python3 > /dev/null; then
	python3 -c 'import json,sys; json.loads(open(sys.argv[1],"rb").read().decode("utf-8","strict"))' all.json ||
		die "export is not strict JSON"
fi
grep -qF '{"bytes":"6bff"}' all.json || die "k\\xff not exported as bytes: $(grep -o 'kernels.\{0,200\}' all.json)"
"$MMB" import --db back.db all.json > /dev/null 2> err || die "re-import failed: $(cat err)"
[ "$(sqlite3 back.db "SELECT group_concat(hex(label), ' ') FROM (SELECT label FROM kernels ORDER BY id)")" = "6BFF 6BFE" ] ||
	die "labels changed: $(sqlite3 back.db "SELECT hex(label) FROM kernels")"
[ "$(sqlite3 back.db "SELECT DISTINCT hex(metric) FROM series")" = 6DB1 ] || die "metric changed"
# a bytes object that is no text mmbench wrote is refused, with where
sed 's/{"bytes":"6bff"}/{"bytes":"6b00"}/' all.json > nul.json
rc=0
"$MMB" import --db nul.db nul.json > /dev/null 2> err || rc=$?
[ $rc = 2 ] && grep -qF 'bytes' err || die "a NUL in bytes: exit $rc, $(cat err)"
echo ok
