#!/bin/bash
# ab --host, the A/B on the machine itself across kexecs, with fake kexec and
# systemctl (tests/e2e-abhost.sh): the plan A B B A starts on the running
# kernel A, kexecs to B with B's cmdline, the resume hook (a systemd unit,
# enabled) carries the campaign through each boot, each run records the
# kernel it ran on, and at the end the hook is gone, the journal empty and
# compare prints the verdict of the two labels; --status says where it is.
. "$(dirname "$0")/../e2e-lib.sh"
. "$(dirname "$0")/../e2e-abhost.sh"

set +e
"$MMB" ab --host --kernel-a "$TMP/a.img" --kernel-b "$TMP/b.img" --rounds 2 \
	--base-name kA --new-name kB "$TMP/exp.yaml" > "$TMP/out" 2> "$TMP/err"
rc=$?
set -e
[ $rc = 137 ] || { cat "$TMP/err"; die "the first boot should end in kexec -e (killed), exit $rc"; }
grep -q "plan ABBA (A = kA, B = kB), kexec between boots" "$TMP/err" || die "no plan line: $(cat "$TMP/err")"
grep -q "^kexec -l $TMP/b.img --command-line=$CMD\$" "$TMP/tools.log" || die "kexec -l: $(cat "$TMP/tools.log")"
grep -q "^systemctl enable mmbench-ab-resume.service" "$TMP/tools.log" || die "hook not enabled"
grep -q "ExecStart=\"$MMB\" ab --host --resume" "$UNIT" ||
	grep -q "ExecStart=\"$(readlink -f "$MMB")\" ab --host --resume" "$UNIT" || die "ExecStart: $(cat "$UNIT")"
[ "$(q "SELECT count(*) FROM runs")" = 1 ] || die "one run before the first kexec"
come_up	# B
"$MMB" ab --host --status > "$TMP/st"
grep -q "^boots done 1 of 4" "$TMP/st" || die "status: $(cat "$TMP/st")"
grep -q "^in flight boot 2 (kB)" "$TMP/st" || die "status: $(cat "$TMP/st")"
grep -q "^next	1" "$TMP/state/ab-host" || die "campaign file: $(cat "$TMP/state/ab-host")"

[ -e "$UNIT" ] || die "a command at the next boot must keep the hook"
hook	# B: boots 2 and 3 run here (B B), then kexec to A
[ $brc = 137 ] || { cat "$TMP/boot$nboot.err"; die "boot 2 should kexec to A, exit $brc"; }
[ -e "$UNIT" ] || die "the hook must stay across the boots"
boot	# A: boot 4, the end
[ $brc = 0 ] || { cat "$TMP/boot$nboot.err"; die "the last boot failed ($brc)"; }
grep -q "2 rounds of kA vs kB done (0 failures)" "$TMP/boot$nboot.err" || die "no end line"
grep -q "kA" "$TMP/boot$nboot.out" && grep -q "kB" "$TMP/boot$nboot.out" || die "no compare: $(cat "$TMP/boot$nboot.out")"
[ ! -e "$UNIT" ] || die "the hook is still installed"
grep -q "^systemctl disable --quiet mmbench-ab-resume.service" "$TMP/tools.log" || die "hook not disabled"
[ ! -e "$TMP/state/journal" ] || die "journal left: $(cat "$TMP/state/journal")"
grep -q "systemctl reboot" "$TMP/tools.log" && die "ended on the default kernel: no reboot wanted"
[ "$(grep -c '^kexec -e' "$TMP/tools.log")" = 2 ] || die "two kexecs: $(cat "$TMP/tools.log")"

# the kernel sequence, each run with the kernel it ran on
seq=$(q "SELECT group_concat(k.label || '@' || e.value, ' ') FROM runs r JOIN kernels k ON r.kernel_id = k.id
	JOIN run_env e ON e.run_id = r.id AND e.key = 'host.kernel.release' ORDER BY r.id")
[ "$seq" = "kA@6.1.0-mmbA kB@6.12.0-mmbB kB@6.12.0-mmbB kA@6.1.0-mmbA" ] || die "sequence: $seq"
[ "$(q "SELECT group_concat(value, ' ') FROM run_env WHERE key = 'ab.host.boot' ORDER BY run_id")" = "1/4 2/4 3/4 4/4" ] ||
	die "boot numbers"
"$MMB" ab --host --status > "$TMP/st"
grep -q "^status done" "$TMP/st" || die "status: $(cat "$TMP/st")"
echo ok
