#!/bin/bash
# Issue 42 item 4: a 0-day mail is anyone's text.  `reproduce -n MAIL`
# printed its `test machine:`, commit subjects and row names raw, so an ESC
# or a C1 control in a mail drove the terminal.  The parser's door
# (lkpreport_parse(): every string it returns, and its error line) writes
# controls as \xNN / \uNNNN.
. "$(dirname "$0")/../e2e-lib.sh"
command -v python3 > /dev/null || skip "python3 not installed"
FIX=$(cd "$(dirname "$0")/../fixtures/reports" && pwd)
cd "$TMP"
python3 - "$FIX/aim9-report.txt" <<'PY'
import sys
s = open(sys.argv[1], "rb").read()
# ESC OSC (title) BEL, C1 CSI as UTF-8, U+2028, a raw 0x9b (8-bit CSI)
s = s.replace(b"with 64G memory", b"with 64G memory\x1b]0;pwned\x07 \xc2\x9b31m \xe2\x80\xa8forged \x9b1m")
s = s.replace(b'("mm: avoid using vma_merge() for new VMAs")\n', b'("mm: avoid\x1b[2J using vma_merge() for new VMAs")\n')
s = s.replace(b"aim9.time.system_time", b"aim9.time.system_time\x1b[31m")
open("evil.txt", "wb").write(s)
open("broken.txt", "wb").write(b"kernel test robot noticed a -5.0% regression of aim9.brk\x1b[31m_test on:\n")
PY
cat > clean.py <<'PY'
import sys
bad = set(range(0x20)) - {0x0a, 0x09} | {0x7f} | set(range(0x80, 0xa0)) | {0x2028, 0x2029}
for path in sys.argv[1:]:
    text = open(path, "rb").read().decode("utf-8")
    for i, ch in enumerate(text):
        if ord(ch) in bad:
            sys.exit("%s: control U+%04X: %r" % (path, ord(ch), text[max(0, i - 40):i + 20]))
PY
"$MMB" reproduce -n evil.txt > out 2> err || die "reproduce -n: $(cat err)"
python3 clean.py out err || die "reproduce -n printed the mail's controls raw"
grep -qF 'with 64G memory\x1b]0;pwned\x07 \u009b31m \u2028forged \x9b1m' out ||
	die "the test machine is not shown escaped: $(grep 'test machine' out)"
grep -qF '("mm: avoid\x1b[2J using vma_merge() for new VMAs")' out || die "the subject is not shown escaped"
grep -qF 'aim9.time.system_time\x1b[31m' out || die "the row name is not shown escaped"
set +e
"$MMB" reproduce -n broken.txt > out 2> err
rc=$?
set -e
[ $rc = 2 ] || die "a broken mail: exit $rc, want 2"
python3 clean.py out err || die "the error line quotes the mail raw"
grep -qF 'aim9.brk\x1b[31m_test' err || die "the error does not name the metric escaped: $(cat err)"
echo ok
