#!/bin/bash
# ab --host --precision: ab's planning across boots (tests/e2e-abhost.sh's
# fake machine).  After the pilot rounds ab's look decides: more rounds
# append to the plan (doubling, at most --max-rounds), recorded in the
# campaign file so the boots after the next kexec go on with them; at
# --max-rounds it stops, warns that the target was not reached, and the
# verdict covers every round.  --max-rounds without --precision is refused.
. "$(dirname "$0")/../e2e-lib.sh"
. "$(dirname "$0")/../e2e-abhost.sh"

start --rounds 1 --max-rounds 2
[ $rc = 2 ] || die "--max-rounds without --precision: exit $rc, expected 2"
grep -q "ab --host: --max-rounds goes with --precision" "$TMP/err" || die "$(cat "$TMP/err")"
start --rounds 3 --precision 1% --max-rounds 2
[ $rc = 2 ] || die "--rounds above --max-rounds: exit $rc, expected 2"

reset
# a target no two boots reach: the pilot round, then one more, then the cap
start --rounds 1 --precision 0.0001% --max-rounds 2
[ $rc = 137 ] || { cat "$TMP/err"; die "the first boot should end in kexec -e (killed), exit $rc"; }
grep -q "plan AB (A = kA, B = kB)" "$TMP/err" || die "no pilot plan: $(cat "$TMP/err")"
grep -q "^precision	9.99999999999999.*e-07$" "$TMP/state/ab-host" || die "the campaign file lacks the target: $(cat "$TMP/state/ab-host")"
boot	# B: boot 2 ends the pilot; the look adds a round: B again, then kexec to A
[ $brc = 137 ] || { cat "$TMP/boot$nboot.err"; die "boot 2 should kexec to A after the look, exit $brc"; }
grep -q "ab: after 1 round: widest 95% CI" "$TMP/boot$nboot.err" || die "no look: $(cat "$TMP/boot$nboot.err")"
grep -q "ab --host: --precision: 1 more round, plan ABBA" "$TMP/boot$nboot.err" || die "no extension: $(cat "$TMP/boot$nboot.err")"
come_up	# A (--status in the boot that kexec'ed would take it for a crash)
"$MMB" ab --host --status > "$TMP/st"
grep -q "^plan ABBA" "$TMP/st" || die "status: $(cat "$TMP/st")"
grep -q "^precision +-0.0001%: 2 rounds planned so far (at most 2)" "$TMP/st" || die "status: $(cat "$TMP/st")"
hook	# boot 4, the end at --max-rounds
[ $brc = 0 ] || { cat "$TMP/boot$nboot.err"; die "the last boot failed ($brc)"; }
grep -q "ab: after 2 rounds: widest 95% CI" "$TMP/boot$nboot.err" || die "no second look"
grep -q "precision 0.0001% not reached in --max-rounds 2" "$TMP/boot$nboot.err" || die "no warning: $(cat "$TMP/boot$nboot.err")"
grep -q "2 rounds of kA vs kB done (0 failures)" "$TMP/boot$nboot.err" || die "no end line: $(cat "$TMP/boot$nboot.err")"
seq=$(q "SELECT group_concat(k.label, ' ') FROM runs r JOIN kernels k ON r.kernel_id = k.id ORDER BY r.id")
[ "$seq" = "kA kB kB kA" ] || die "sequence: $seq"
echo ok
