#!/bin/bash
# Issue 42 item 3: text read out of a results DB is shown escaped, whatever
# printed it.  Control characters in fields that are not names (hostname,
# CPU model, release, cmdline, run_env values, iteration reasons, the
# experiment's text) passed merge and JSON import and reached `show`,
# compare's settings: note and the report raw: a newline in a hostname
# forged lines of the mail text, an ESC drove the terminal.  `compare --db`
# of a crafted file with an ESC in a label or a metric printed it raw in
# every layout.  One layer escapes now: db/'s text accessors (C0, DEL, C1,
# U+2028/U+2029 and bytes that are not UTF-8 as \xNN, \uNNNN).
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
for l in base new; do run --name $l spin.yaml; [ $rc = 0 ] || die "run $l: $(cat "$TMP/err")"; done
cp "$MMBENCH_DB" fields.db
# char(27) ESC, 10 LF, 13 CR, 7 BEL, 155 U+009B (C1 CSI), 133 U+0085 (NEL), 8232 U+2028
sqlite3 fields.db "
UPDATE kernels SET release = 'rel' || char(27) || '[2J' || char(10) || 'Reported-by: forged',
	cmdline = 'cmd' || char(27) || ']0;title' || char(7) WHERE label = 'new';
UPDATE machines SET hostname = 'host' || char(10) || 'Subject: forged' || char(27) || '[1m',
	cpu_model = 'cpu' || char(155) || '31m' || char(8232) || 'forged' || char(133);
UPDATE runs SET release = 'rr' || char(27) || '[5m', cmdline = 'cc' || char(10) || 'forged-cmdline',
	config_text = 'experiment: x' || char(10) || char(27) || '[31mred yaml' || char(13) || 'forged',
	experiment = 'exp' || char(27) || '[4m';
INSERT OR REPLACE INTO run_env (run_id, key, value, original) VALUES
	(1, 'thp.enabled', 'always' || char(27) || '[7m', 'never'),
	(2, 'thp.enabled', 'never' || char(10) || 'forged-setting', 'x' || char(27));
UPDATE iterations SET status = 'failed', reason = 'boom' || char(27) || '[31m' || char(10) || 'forged reason'
	WHERE id = (SELECT min(id) FROM iterations WHERE run_id = 2);
UPDATE iterations SET disturbed = 'load' || char(27) || '[33m' || char(10) || 'forged disturbed'
	WHERE id = (SELECT max(id) FROM iterations WHERE run_id = 2);"
# the same with names no door lets in: only compare --db reads such a file
cp fields.db names.db
sqlite3 names.db "UPDATE kernels SET label = 'new' || char(27) || '[31m' || char(10) || 'forged' WHERE label = 'new';
	UPDATE series SET metric = metric || char(27) || '[32m' || char(155);"
evil=$'new\e[31m\nforged'

cat > clean.py <<'PY'
import sys
# shown text: UTF-8, no control but newline and tab, no line a field forged
bad = set(range(0x20)) - {0x0a, 0x09} | {0x7f} | set(range(0x80, 0xa0)) | {0x2028, 0x2029}
for path in sys.argv[1:]:
    raw = open(path, "rb").read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        sys.exit("%s: not UTF-8: %s" % (path, e))
    for i, ch in enumerate(text):
        if ord(ch) in bad:
            sys.exit("%s: control U+%04X at %d: %r" % (path, ord(ch), i, text[max(0, i - 40):i + 20]))
    for n, line in enumerate(text.split("\n"), 1):
        if line.lstrip(" |-*>#").startswith(("forged", "Subject: forged", "Reported-by: forged")):
            sys.exit("%s:%d: a forged line: %r" % (path, n, line))
PY
clean() {	# WHAT FILES...: die unless every file is clean
	local what=$1
	shift
	python3 clean.py "$@" || die "$what: text from the DB shown raw"
}
out() {	# NAME CMD...: stdout and stderr of mmbench CMD into NAME.out, NAME.err
	local name=$1
	shift
	"$MMB" "$@" > "$name.out" 2> "$name.err" || true
	[ -s "$name.out" ] || [ -s "$name.err" ] || die "$name: mmbench $* said nothing"
}
shown() {	# DB: every reader of DB, each output checked
	local db=$1 f
	out show1 show --db "$db" 1
	out show2 show --db "$db" 2
	out config show --db "$db" --config 2
	out runs list runs --db "$db"
	out kernels list kernels --db "$db"
	grep -qF 'host\nSubject: forged\x1b[1m' show2.out || die "$db: show: the hostname not shown escaped"
	grep -qF 'cpu\u009b31m\u2028forged\u0085' show2.out || die "$db: show: the CPU model not shown escaped"
	grep -qF 'boom\x1b[31m\nforged reason' show2.out || die "$db: show: the reason not shown escaped"
	grep -qF 'never\nforged-setting' show2.out || die "$db: show: an environment value not shown escaped"
	grep -q '^experiment: x$' config.out && grep -qF '\x1b[31mred yaml\rforged' config.out ||
		die "$db: show --config: not its lines, escaped: $(cat config.out)"
	for f in text mmtests lkp markdown csv json; do
		out "cmp-$f" compare --db "$db" --format "$f" base new
	done
	grep -qF 'never\nforged-setting' cmp-text.out || die "$db: compare: settings: value not shown escaped"
	rm -rf rep
	"$MMB" report --db "$db" --no-plots --out rep base new > rep.out 2>&1 || die "$db: report: $(cat rep.out)"
	clean "$db" show1.* show2.* config.* runs.* kernels.* cmp-* rep.out rep/report.txt rep/report.md
	grep -qF 'host\nSubject: forged' rep/report.txt || die "$db: report.txt: the hostname not shown escaped"
}

# a crafted file read directly, a merge of it, an import of its export JSON
shown fields.db
MMBENCH_DB=$TMP/merged.db "$MMB" -q merge fields.db > merge.out 2>&1 || die "merge: $(cat merge.out)"
shown merged.db
"$MMB" export --db fields.db --format json > fields.json
MMBENCH_DB=$TMP/imported.db "$MMB" -q import fields.json > import.out 2>&1 || die "import: $(cat import.out)"
shown imported.db

# names no door lets in, read by compare --db: every layout, every note
for f in text mmtests lkp markdown csv json; do
	out "names-$f" compare --db names.db --format "$f" base "$evil"
	out "names-$f-v" compare --db names.db --format "$f" --verbose --keep-disturbed base "$evil"
done
grep -qF 'new\x1b[31m\nforged' names-text.out || die "compare --db: the label not shown escaped"
grep -qF '\x1b[32m\u009b' names-text.out || die "compare --db: the metric not shown escaped"
out names-show show --db names.db 2
out names-unknown compare --db names.db base nosuch
grep -qF 'new\x1b[31m\nforged' names-unknown.err || die "unknown label: the known labels not listed escaped"
clean "compare --db names.db" names-*
echo ok
