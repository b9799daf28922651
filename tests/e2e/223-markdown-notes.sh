#!/bin/bash
# Issue 42 item 5: the settings:, disturbed: and inconclusive: lines of
# `compare --format markdown` (and the copy report.md embeds) printed
# labels and settings' values raw, so a label '<img src=x onerror=...>'
# (a name may hold '<') or a value from someone else's DB was HTML in a
# Markdown viewer.  The notes are escaped like the table cells now; a code
# block of report.md is fenced longer than any run of backquotes in it.
. "$(dirname "$0")/../e2e-lib.sh"
command -v python3 > /dev/null || skip "python3 not installed"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
cd "$TMP"
cat > spin.yaml <<EOC
experiment: spin
iterations: 3
warmup: 0
workloads:
  - name: spin
    params: { threads: 1, ms: [2] }
EOC
evil='<img src=x onerror=alert(1)>'
for l in base "$evil"; do run --name "$l" spin.yaml; [ $rc = 0 ] || die "run: $(cat "$TMP/err")"; done
# a setting differs (values from another machine's DB), one iteration disturbed
sqlite3 "$MMBENCH_DB" "INSERT OR REPLACE INTO run_env (run_id, key, value, original) VALUES
	(1, 'thp.enabled', '<script>alert(1)</script>', 'never'),
	(2, 'thp.enabled', '\`\`\`<b>never</b>', 'x');
UPDATE iterations SET disturbed = 'load' WHERE id = (SELECT max(id) FROM iterations WHERE run_id = 2);"
"$MMB" compare --format markdown base "$evil" > cmp.md 2> cmp.err || true
"$MMB" report --no-plots --out rep base "$evil" > rep.out 2>&1 || die "report: $(cat rep.out)"
for l in settings disturbed inconclusive; do
	grep -q "^$l: .*\\\\<" cmp.md || die "no escaped $l: line in compare's markdown: $(cat cmp.md)"
done
cat > nohtml.py <<'PY'
import re, sys
# outside fenced code blocks no tag starts but our own <br> (a line break
# in a table cell): every '<' of a name is '\<'
for path in sys.argv[1:]:
    fence = None
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        m = re.match(r"(`{3,})", line)
        if m and (fence is None or (m.group(1) == fence and line.strip() == fence)):
            fence = None if fence else m.group(1)
            continue
        if fence is None and re.search(r"(?<!\\)<(?!br>)[A-Za-z/!?]", line):
            sys.exit("%s:%d: raw HTML: %s" % (path, n, line.rstrip()))
    if fence:
        sys.exit("%s: a code block never closes (its fence was closed early?)" % path)
PY
python3 nohtml.py cmp.md rep/report.md || die "markdown holds raw HTML"
echo ok
