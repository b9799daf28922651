#!/bin/bash
# ab --host on a machine without systemd (an initramfs-only system: no
# /run/systemd/system): the resume hook is the file ab-host.hook in the state
# folder, which the machine's init checks after mounting its disk and then
# runs `mmbench ab --host --resume`; no systemctl is ever called.  The
# campaign goes on across the kexecs, the hook file goes at its end (and at
# --abort), and a campaign that ends away from the kernel it started on
# reboots with `reboot -f` (no systemd to ask).
. "$(dirname "$0")/../e2e-lib.sh"
. "$(dirname "$0")/../e2e-abhost.sh"

rm -rf "$ROOT/run/systemd"
HOOK=$TMP/state/ab-host.hook
printf '#!/bin/bash\necho "reboot $*" >> "$TMP/tools.log"\n' > "$TMP/bin/reboot"
chmod +x "$TMP/bin/reboot"
# the machine's init at boot: the hook file there, --resume (rc in brc)
init() {
	set +e
	if [ -e "$HOOK" ]; then
		"$MMB" ab --host --resume > "$TMP/boot$nboot.out" 2> "$TMP/boot$nboot.err"
		brc=$?
	else
		brc=none
	fi
	set -e
}

start --rounds 2
[ $rc = 137 ] || { cat "$TMP/err"; die "the first boot should end in kexec -e (killed), exit $rc"; }
[ -f "$HOOK" ] || die "no hook file in the state folder: $(ls "$TMP/state")"
grep -q "ab --host --resume" "$HOOK" || die "the hook file does not say what init runs: $(cat "$HOOK")"
[ ! -e "$UNIT" ] || die "a systemd unit on a machine without systemd"
grep -q systemctl "$TMP/tools.log" && die "systemctl called without systemd: $(cat "$TMP/tools.log")"
come_up; init	# B: boots 2 and 3, then kexec to A
[ "$brc" = 137 ] || { cat "$TMP/boot$nboot.err"; die "boot 2 should kexec to A, exit $brc"; }
[ -f "$HOOK" ] || die "the hook file must stay across the boots"
come_up; init	# A: boot 4, the end
[ "$brc" = 0 ] || { cat "$TMP/boot$nboot.err"; die "the last boot failed ($brc)"; }
grep -q "2 rounds of kA vs kB done (0 failures)" "$TMP/boot$nboot.err" || die "no end line"
[ ! -e "$HOOK" ] || die "the hook file is still there"
[ ! -e "$TMP/state/journal" ] || die "journal left: $(cat "$TMP/state/journal")"
grep -q systemctl "$TMP/tools.log" && die "systemctl called without systemd: $(cat "$TMP/tools.log")"
grep -q "^reboot" "$TMP/tools.log" && die "ended on the default kernel: no reboot wanted"
seq=$(q "SELECT group_concat(k.label || '@' || e.value, ' ') FROM runs r JOIN kernels k ON r.kernel_id = k.id
	JOIN run_env e ON e.run_id = r.id AND e.key = 'host.kernel.release' ORDER BY r.id")
[ "$seq" = "kA@6.1.0-mmbA kB@6.12.0-mmbB kB@6.12.0-mmbB kA@6.1.0-mmbA" ] || die "sequence: $seq"

# --abort on B: the hook file goes, and `reboot -f` takes the machine home
reset
start --rounds 1
[ $rc = 137 ] || { cat "$TMP/err"; die "the second campaign should kexec to B, exit $rc"; }
come_up
"$MMB" ab --host --abort > "$TMP/out" 2> "$TMP/err" || { cat "$TMP/err"; die "--abort failed"; }
[ ! -e "$HOOK" ] || die "--abort left the hook file"
grep -qx "reboot -f" "$TMP/tools.log" || die "no reboot -f to the default kernel: $(cat "$TMP/tools.log")"
init
[ "$brc" = none ] || die "the init found a hook after --abort"
echo ok
