#!/bin/bash
# ab --host's resume hook in the restore journal (fake kexec and systemctl,
# tests/e2e-abhost.sh):
#  - mmbench killed in this boot with the hook installed: the next mmbench
#    start replays the journal and removes the hook (a crash restores)
#  - a power cut in a resumed boot, mid-run: the next boot keeps the hook
#    (the journal entries are of earlier boots) and the campaign goes on
#  - --seed: each round's order random, the seed and plan recorded
#  - --reboot: a one-shot entry by grub-reboot, else systemctl reboot
#    --boot-loader-entry; nothing edits the default entry
#  - a journal entry naming another file than the hook is refused
. "$(dirname "$0")/../e2e-lib.sh"
. "$(dirname "$0")/../e2e-abhost.sh"

# 1. killed in this boot (the kexec never came): the next start restores
start --rounds 1
[ $rc = 137 ] && [ -e "$UNIT" ] || die "the hook should be installed before kexec -e ($rc)"
grep -q "	H	$UNIT	1111\$" "$TMP/state/journal" || die "journal: $(cat "$TMP/state/journal")"
"$MMB" ab --host --status > /dev/null 2> "$TMP/err"
grep -q "did not restore the system; restoring it now" "$TMP/err" || die "no restore: $(cat "$TMP/err")"
[ ! -e "$UNIT" ] && [ ! -e "$TMP/state/journal" ] || die "the hook of a killed campaign stayed"
grep -q "^systemctl disable --quiet mmbench-ab-resume.service" "$TMP/tools.log" || die "not disabled"

# 2. a power cut mid-run in a resumed boot: the hook goes on
reset
start --rounds 2
come_up	# B
cp "$TMP/exp.yaml" "$TMP/exp.fast"
sed -i 's/ms: 2 }/ms: 10000 }/; s/^iterations: 2/iterations: 1000/' "$TMP/exp.yaml"	# boot 2's run is still going when the power goes
[ -e "$ROOT/enabled.mmbench-ab-resume.service" ] || die "not enabled"
line=$(sed -n 's/^ExecStart=//p' "$UNIT"); read -ra argv <<< "${line//\"/}"
runs=$(q "SELECT count(*) FROM runs")
"${argv[@]}" > /dev/null 2>&1 &
bg=$!
# the power cut, also if a check below fails: the campaign and its run at once
power_cut() { kill -9 "$bg" $(cat /proc/"$bg"/task/*/children 2>/dev/null) 2>/dev/null || true; wait "$bg" 2>/dev/null || true; }
trap 'power_cut; cleanup' EXIT
for _ in $(seq 1 600); do [ "$(q "SELECT count(*) FROM runs")" = $((runs + 1)) ] && break; sleep 0.1; done
[ "$(q "SELECT status FROM runs ORDER BY id DESC LIMIT 1")" = running ] || die "boot 2's run never started: $(q 'SELECT id, status FROM runs')"
[ "$(grep -c '	H	' "$TMP/state/journal")" = 2 ] || die "the resumed boot journals the hook too"
power_cut
cp "$TMP/exp.fast" "$TMP/exp.yaml"
come_up 6.1.0-mmbA "$CMD"	# the power is back: the firmware's default kernel
"$MMB" ab --host --status > "$TMP/st" 2> "$TMP/err"
# the killed run's own entries (its iteration cgroup) may be replayed; the hook's are kept
[ -e "$UNIT" ] && [ -e "$ROOT/enabled.mmbench-ab-resume.service" ] || die "the hook must survive a power cut"
[ "$(grep -c '	H	' "$TMP/state/journal")" = 2 ] || die "the hook's entries must stay journaled: $(cat "$TMP/state/journal")"
grep -q "^systemctl disable" "$TMP/tools.log" && die "a power cut is no crash: the hook was disabled"
hook
[ $brc = 137 ] || die "the campaign goes on: B again by kexec ($brc) $(cat "$TMP/boot$nboot.err")"
[ "$(grep -c '^kexec -l' "$TMP/tools.log")" = 2 ] || die "$(cat "$TMP/tools.log")"

# 3. --seed: random order per round, recorded
reset
start --rounds 4 --seed 7
plan=$(sed -n 's/^plan	//p' "$TMP/state/ab-host")
[[ $plan =~ ^((AB)|(BA)){4}$ ]] || die "plan $plan"
grep -q "^seed	7\$" "$TMP/state/ab-host" && grep -q "randomised" "$TMP/err" || die "seed not recorded"
reset
start --rounds 4 --seed 7
[ "$(sed -n 's/^plan	//p' "$TMP/state/ab-host")" = "$plan" ] || die "the seed gives the plan"

# 4. --reboot: one-shot entries
reset
start --rounds 1 --reboot --entry-a ea --entry-b eb
grep -q "^grub-reboot eb" "$TMP/tools.log" && grep -q "^systemctl reboot\$" "$TMP/tools.log" || die "$(cat "$TMP/tools.log")"
grep -q "kexec" "$TMP/tools.log" && die "--reboot must not kexec"
reset
rm "$TMP/bin/grub-reboot"
start --rounds 1 --reboot --entry-a ea --entry-b eb
grep -q "^systemctl reboot --boot-loader-entry=eb" "$TMP/tools.log" || die "$(cat "$TMP/tools.log")"
start --rounds 1 --reboot
[ $rc = 2 ] && grep -q "reboot needs --entry-a and --entry-b" "$TMP/err" || die "--reboot without entries: $rc"
reset

# 5. an H entry naming any other file is refused, the file kept
touch "$TMP/victim"
printf '999999\tH\t%s\t1111\n' "$TMP/victim" > "$TMP/state/journal"
"$MMB" restore > /dev/null 2> "$TMP/err" || true
grep -q "skipping '$TMP/victim': not the resume hook mmbench installs" "$TMP/err" || die "$(cat "$TMP/err")"
[ -e "$TMP/victim" ] || die "a journal entry removed a file that is not the hook"
echo ok
