#!/bin/bash
# Issue 42: stress-ng's own error text was hidden: an iteration whose
# stress-ng printed no metrics failed with "stress-ng printed no metrics
# line" and nothing of what it said.  The reason now ends with how it
# ended and its last lines (bounded, control bytes as \xNN: no raw ESC or
# newline reaches the database or a terminal).
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$(cd "$MMBENCH_BUILD/workloads" && pwd)
mkdir -p "$TMP/bin"
cat > "$TMP/bin/stress-ng" <<'EOS'
#!/bin/sh
case "$1" in
--version) echo "stress-ng, version 0.15.06 (gcc 12.2.0, x86_64 Linux fake)"; exit 0 ;;
--help) exit 0 ;;
esac
echo "stress-ng: info:  [9] setting to a 3 secs run per stressor"
printf 'stress-ng: unrecognized option \033[31m--pagemove-x\033[0m\n' >&2
echo "Try 'stress-ng --help' for more information." >&2
exit 2
EOS
chmod +x "$TMP/bin/stress-ng"
cat > "$TMP/s.yaml" <<'Y'
experiment: sng-err
iterations: 1
warmup: 0
workloads:
  - name: stress-ng
    params:
      test: pagemove
      nr_threads: 1
      testtime: 3s
      dir: /tmp
Y
PATH=$TMP/bin:$PATH run "$TMP/s.yaml" --name e
[ "$rc" = 1 ] || die "a failed iteration: exit $rc, want 1: $(cat "$TMP/err")"
why=$(q "SELECT reason FROM iterations WHERE status = 'failed'")
case $why in
*"exit 2; it said: "*"unrecognized option \\x1b[31m--pagemove-x\\x1b[0m | Try 'stress-ng --help' for more information."*) ;;
*) die "the reason does not carry stress-ng's words: $why" ;;
esac
printf '%s' "$why" | grep -q "$(printf '\033')" && die "a raw ESC in the reason"
[ "${#why}" -lt 600 ] || die "the reason is not bounded: ${#why} bytes"
echo ok
