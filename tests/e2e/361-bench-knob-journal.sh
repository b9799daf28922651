#!/bin/bash
# e2e: the fidelity benches hold free page reporting off (page_reporting's
# min_free_ms) and put it back (bench/lib.sh).  The knob and the journal
# are files here, so the test changes nothing on the machine:
# - the old value is journaled before the knob changes, and put back by
#   bench_knobs_replay (the bench's exit), which removes the journal;
# - after a "crash" (no replay), the next bench start puts it back first;
# - a journal naming another file, holding no number, writable by others
#   or a symlink is refused or skipped; the knob is left as it is;
# - no knob (mainline): nothing is changed, nothing journaled, no error.
. "$(dirname "$0")/../e2e-lib.sh"
export BENCH_MIN_FREE=$TMP/min_free_ms BENCH_KNOB_JOURNAL=$TMP/journal
lib=$(dirname "$0")/../../bench/lib.sh
in_bench() { bash -c ". '$lib'; $*" > "$TMP/out" 2>&1; }

echo 0 > "$BENCH_MIN_FREE"
in_bench bench_hold_reporting || die "hold failed: $(cat "$TMP/out")"
grep -q "min_free_ms 0 -> 300000" "$TMP/out" || die "the change not printed: $(cat "$TMP/out")"
[ "$(cat "$BENCH_MIN_FREE")" = 300000 ] || die "knob not held: $(cat "$BENCH_MIN_FREE")"
[ "$(cat "$BENCH_KNOB_JOURNAL")" = "$BENCH_MIN_FREE	0" ] || die "journal: $(cat "$BENCH_KNOB_JOURNAL")"
[ -z "$(find "$BENCH_KNOB_JOURNAL" -perm /022)" ] || die "journal writable by others"
in_bench bench_knobs_replay || die "replay failed: $(cat "$TMP/out")"
[ "$(cat "$BENCH_MIN_FREE")" = 0 ] || die "not put back: $(cat "$BENCH_MIN_FREE")"
[ ! -e "$BENCH_KNOB_JOURNAL" ] || die "journal left after the replay"

# a crash: the journal stays; the next hold puts the old value back first,
# then journals that value again (not the held one)
echo 25 > "$BENCH_MIN_FREE"
in_bench bench_hold_reporting || die "hold failed"
in_bench bench_hold_reporting || die "second hold failed: $(cat "$TMP/out")"
grep -q "min_free_ms 25 -> 300000" "$TMP/out" || die "the crashed bench's value not put back first: $(cat "$TMP/out")"
in_bench bench_knobs_replay
[ "$(cat "$BENCH_MIN_FREE")" = 25 ] || die "after a crash: $(cat "$BENCH_MIN_FREE")"

# hostile journals
printf '/etc/passwd\t1\n' > "$BENCH_KNOB_JOURNAL"
in_bench bench_knobs_replay || die "a foreign entry failed the replay"
grep -q "skipping an entry that is not a knob the benches set" "$TMP/out" || die "foreign entry: $(cat "$TMP/out")"
printf '%s\tabc\n' "$BENCH_MIN_FREE" > "$BENCH_KNOB_JOURNAL"
in_bench bench_knobs_replay
grep -q "skipping" "$TMP/out" || die "a non-number replayed: $(cat "$TMP/out")"
[ "$(cat "$BENCH_MIN_FREE")" = 25 ] || die "knob changed by a bad entry"
printf '%s\t7\n' "$BENCH_MIN_FREE" > "$BENCH_KNOB_JOURNAL"
chmod 666 "$BENCH_KNOB_JOURNAL"
in_bench bench_knobs_replay && die "a world-writable journal was replayed"
grep -q "refusing the knob journal" "$TMP/out" || die "no refusal: $(cat "$TMP/out")"
in_bench bench_hold_reporting && die "held the knob over a refused journal"
[ "$(cat "$BENCH_MIN_FREE")" = 25 ] || die "knob changed despite a refused journal"
rm -f "$BENCH_KNOB_JOURNAL"
printf '%s\t7\n' "$BENCH_MIN_FREE" > "$TMP/elsewhere"
ln -s "$TMP/elsewhere" "$BENCH_KNOB_JOURNAL"
in_bench bench_knobs_replay && die "a symlinked journal was replayed"
[ "$(cat "$BENCH_MIN_FREE")" = 25 ] || die "knob changed through a symlink"
rm -f "$BENCH_KNOB_JOURNAL"

# no such knob: nothing to do
export BENCH_MIN_FREE=$TMP/absent
in_bench bench_hold_reporting || die "hold failed without the knob: $(cat "$TMP/out")"
[ ! -s "$TMP/out" ] && [ ! -e "$BENCH_KNOB_JOURNAL" ] || die "without the knob: $(cat "$TMP/out")"
echo ok
