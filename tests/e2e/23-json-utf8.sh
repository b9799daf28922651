#!/bin/bash
# Every JSON mmbench writes parses with a strict parser, whatever bytes the
# names hold: `compare --format json` once wrote a label's raw \xff byte.
# Bytes that are not UTF-8 (a lone \xff, an overlong \xc0\xaf, a UTF-16
# surrogate \xed\xa0\x80, past U+10FFFF \xf4\x90\x80\x80) are shown as
# the text \xNN, as every printer shows text read from a results DB (issue
# 42, docs/security.md; JSON's own writer would make them \ufffd);
# well-formed UTF-8 (é, €, 😀) and a backslash come back as they were
# (control characters never get in: 127-names-control.sh).
. "$(dirname "$0")/../e2e-lib.sh"
command -v python3 > /dev/null || skip "python3 not installed"
FIX=$(cd "$(dirname "$0")/../fixtures/compare" && pwd)
cd "$TMP"

bad_label=$'base\xff'
good_label=$'new-é€😀'
bad_wl=$'aim9\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80'
# the same samples under odd workload / metric names
sed "s/^aim9,brk_test/$bad_wl,brk\\x5ctest\\xfe/" "$FIX/aim9-base.csv" > base.csv
sed "s/^aim9,brk_test/$bad_wl,brk\\x5ctest\\xfe/" "$FIX/aim9-new.csv" > new.csv
"$MMB" -q import --name "$bad_label" base.csv
"$MMB" -q import --name "$good_label" new.csv
"$MMB" compare --format json "$bad_label" "$good_label" > out.json
cat > check.py <<'PY'
import json, sys
# strict: stdin decoded as UTF-8 with errors raised
raw = sys.stdin.buffer.read()
doc = json.loads(raw.decode("utf-8", errors="strict"))
text = json.dumps(doc, ensure_ascii=False)
good = sys.argv[1].encode("utf-8", "surrogateescape").decode("utf-8")
assert good in text, "the UTF-8 label is not kept: %r" % text[:300]
assert doc["baseline"] == "base\\xff", "the \\xff label: %r" % doc["baseline"]
assert [r["workload"] for r in doc["rows"]] == ["aim9\\xc0\\xaf\\xed\\xa0\\x80\\xf4\\x90\\x80\\x80"], \
    "the bad workload bytes are not shown as \\xNN"
assert "\udcff" not in text and "\ufffd" not in text
metrics = [r["metric"] for r in doc["rows"]]
assert metrics == ["brk\\test\\xfe.ops_per_sec"], "metric names: %r" % metrics
PY
python3 check.py "$good_label" < out.json ||
	die "compare --format json is not strict JSON: $(od -c out.json | head)"
echo ok
