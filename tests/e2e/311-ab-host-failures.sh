#!/bin/bash
# ab --host's safety (fake kexec and systemctl, tests/e2e-abhost.sh):
#  - no --i-have-console, no watchdog and a cmdline without panic=N: refused
#    (exit 2), nothing written or run; a watchdog device is a way back
#  - a boot that comes up as the wrong kernel (a panic back to the default)
#    or resumes past the bound counts as failed; after --max-failures the
#    campaign stops, removes its hook and says so in --status
#  - kexec -e that returns is a failed boot too
#  - --abort on the B kernel removes the hook and reboots to the default
#  - a second campaign is refused while one runs; an experiment that run
#    refuses ends it at once (exit 2), before any boot; a file that is no
#    bzImage is refused naming it
#  - one process drives the campaign at a time; a damaged campaign file is
#    reported, and --abort removes it and the hook; one others could write
#    is refused
. "$(dirname "$0")/../e2e-lib.sh"
. "$(dirname "$0")/../e2e-abhost.sh"

# 1. no way back: refused before anything
running 6.1.0-mmbA "console=ttyS0"
start --rounds 1
[ $rc = 2 ] || die "no console, watchdog or panic=N: exit $rc, want 2"
grep -q "no way back from a kernel that hangs: give --i-have-console" "$TMP/err" || die "$(cat "$TMP/err")"
[ ! -s "$TMP/tools.log" ] && [ ! -e "$TMP/state/ab-host" ] || die "a refused campaign wrote or ran something"
# B's cmdline without panic=N is no way back either
running 6.1.0-mmbA "$CMD"
start --rounds 1 --cmdline-b "console=ttyS0"
[ $rc = 2 ] || die "B without panic=N: exit $rc"
# a watchdog device is one
mkdir -p "$ROOT/dev"; touch "$ROOT/dev/watchdog"
start --rounds 1 --cmdline-b "console=ttyS0"
[ $rc = 137 ] || die "with a watchdog the campaign starts: exit $rc $(cat "$TMP/err")"
come_up
"$MMB" ab --host --abort 2> "$TMP/err" || die "abort: $(cat "$TMP/err")"
rm "$ROOT/dev/watchdog"

# 2. wrong kernel twice: the campaign fails, hook removed, default kept
reset
start --rounds 1 --max-failures 2
[ $rc = 137 ] || die "boot 1 then kexec: exit $rc $(cat "$TMP/err")"
boot 6.1.0-mmbA "$CMD"	# B panicked: panic=10 brought back the default kernel
[ $brc = 137 ] || die "after a wrong boot, B again: exit $brc $(cat "$TMP/boot$nboot.err")"
grep -q "boot 2 failed: expected kB, came up as 6.1.0-mmbA (1 of 2 failures allowed)" "$TMP/boot$nboot.err" ||
	die "$(cat "$TMP/boot$nboot.err")"
come_up 6.1.0-mmbA "$CMD"
start --rounds 1
[ $rc = 1 ] && grep -q "a campaign is running" "$TMP/err" || die "a second campaign: exit $rc"
hook
[ $brc = 1 ] || die "second failure: exit $brc"
grep -q "campaign failed after 2 failures" "$TMP/boot$nboot.err" || die "$(cat "$TMP/boot$nboot.err")"
[ ! -e "$UNIT" ] && [ ! -e "$TMP/state/journal" ] || die "the failed campaign left its hook"
"$MMB" ab --host --status > "$TMP/st"
grep -q "^status failed" "$TMP/st" && [ "$(grep -c $'^failure\t' "$TMP/st")" = 2 ] || die "$(cat "$TMP/st")"
grep -q "systemctl reboot" "$TMP/tools.log" && die "on the default kernel: no reboot"

# 3. the right kernel, but past the resume bound
reset
start --rounds 1 --max-failures 1
come_up
sed -i 's/^deadline	.*/deadline	1/' "$TMP/state/ab-host"
hook
[ $brc = 1 ] && grep -q "kB resumed after the bound (900 s)" "$TMP/boot$nboot.err" || die "bound: $(cat "$TMP/boot$nboot.err")"
# ended on B: a plain reboot goes back to the default kernel
grep -q "^systemctl reboot\$" "$TMP/tools.log" || die "no reboot to the default kernel"

# 4. kexec -e returns: failed boots, bounded
reset
touch "$ROOT/kexec-fails"
start --rounds 1 --max-failures 2
[ $rc = 1 ] || die "kexec -e failing: exit $rc"
[ "$(grep -c "kexec -e into kB returned" "$TMP/err")" = 2 ] || die "$(cat "$TMP/err")"

# 5. --abort on B
reset
start --rounds 2
come_up
"$MMB" ab --host --abort 2> "$TMP/err" || die "abort: $(cat "$TMP/err")"
grep -q "campaign aborted" "$TMP/err" || die "$(cat "$TMP/err")"
[ ! -e "$UNIT" ] && grep -q "^systemctl disable --quiet mmbench-ab-resume.service" "$TMP/tools.log" || die "abort left the hook"
grep -q "^systemctl reboot\$" "$TMP/tools.log" || die "abort on B should reboot to the default"
"$MMB" ab --host --status | grep -q "^status aborted" || die "status after abort"

# 6. an experiment `mmbench run` refuses (exit 2) ends the campaign at once
reset
printf 'experiment: x\nworkloads:\n  - name: no-such-workload\n' > "$TMP/bad.yaml"
set +e; "$MMB" ab --host --kernel-a "$TMP/a.img" --kernel-b "$TMP/b.img" "$TMP/bad.yaml" 2> "$TMP/err"; rc=$?; set -e
[ $rc = 2 ] && grep -q "bad.yaml:3:.*no-such-workload" "$TMP/err" || die "bad config: $rc $(cat "$TMP/err")"
grep -q "kexec" "$TMP/tools.log" && die "a refused experiment must not boot anything"
"$MMB" ab --host --status | grep -q "^status failed" || die "the refused campaign is failed"

# 7. one driver at a time; a damaged campaign file is aborted whole
reset
start --rounds 1
come_up
exec 8> "$TMP/state/ab-host.lock"
flock 8
set +e; "$MMB" ab --host --resume 2> "$TMP/err"; rc=$?; set -e
exec 8>&-
[ $rc = 1 ] && grep -q "another .mmbench ab --host. is driving the campaign now" "$TMP/err" || die "lock: $rc $(cat "$TMP/err")"
chmod 666 "$TMP/state/ab-host"
set +e; "$MMB" ab --host --status 2> "$TMP/err"; rc=$?; set -e
[ $rc = 1 ] && grep -q "ab-host is world-writable" "$TMP/err" || die "a writable campaign file: $rc $(cat "$TMP/err")"
chmod 600 "$TMP/state/ab-host"
printf 'status\trunning\n' > "$TMP/state/ab-host"
set +e; "$MMB" ab --host --status 2> "$TMP/err"; rc=$?; set -e
[ $rc = 1 ] && grep -q "ab-host is damaged (a key is missing); --abort it" "$TMP/err" || die "damaged: $rc $(cat "$TMP/err")"
"$MMB" ab --host --abort 2> "$TMP/err" || die "abort of a damaged campaign: $(cat "$TMP/err")"
[ ! -e "$TMP/state/ab-host" ] && [ ! -e "$UNIT" ] || die "the damaged campaign or its hook stayed"

# 8. --host's options without --host
set +e; "$MMB" ab --status 2> "$TMP/err"; rc=$?; set -e
[ $rc = 2 ] && grep -q "go with --host" "$TMP/err" || die "--status without --host: $rc $(cat "$TMP/err")"

# 9. not a bzImage
reset
echo junk > "$TMP/junk.img"
set +e; "$MMB" ab --host --kernel-a "$TMP/junk.img" --kernel-b "$TMP/b.img" "$TMP/exp.yaml" 2> "$TMP/err"; rc=$?; set -e
[ $rc = 2 ] && grep -q "kernel-a $TMP/junk.img: no release in its setup header" "$TMP/err" || die "junk image: $rc $(cat "$TMP/err")"
echo ok
