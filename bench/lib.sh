# Sourced by the bench scripts: one row of make bench's closing table.
#   bench_row FIGURE GOAL MEASURED LIMIT RATIO VERDICT
# GOAL and LIMIT are text ("<= 1 ms", "cat of the DB 0.05 s"); RATIO is
# measured / limit (or "-"); VERDICT is "met", "missed" or why it cannot be
# measured here.  Without MMB_BENCH_TABLE (a script run by hand) rows are
# only printed.
bench_row() {
	printf 'bench: %s: %s (goal %s; limit %s; ratio %s): %s\n' "$1" "$3" "$2" "$4" "$5" "$6"
	[ -n "${MMB_BENCH_TABLE:-}" ] || return 0
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" >> "$MMB_BENCH_TABLE"
}
# met|missed: awk's truth of a comparison, e.g. bench_met "$per <= 1"
bench_met() {
	awk "BEGIN { exit !($1) }" && echo met || echo missed
}
# "wall cpu maxrss_kb" of a command, its stdout and stderr into $BENCH_W/out
# and $BENCH_W/err: wall by date (ns), CPU and peak RSS by /usr/bin/time
# (10 ms resolution; "0 0" without it).  A failed command fails, saying so.
bench_timed1() {
	local f=$BENCH_W/time t0 t1 pre=()
	[ -x /usr/bin/time ] && pre=(/usr/bin/time -o "$f" -f '%U %S %M')
	echo "0 0 0" > "$f"
	t0=$(date +%s.%N)
	"${pre[@]}" "$@" > "$BENCH_W/out" 2> "$BENCH_W/err" ||
		{ echo "bench: failed: $*" >&2; cat "$BENCH_W/err" >&2; return 1; }
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" '{ printf "%.4f %.3f %d\n", b - a, $1 + $2, $3 }' "$f"
}
# bench_timed PREP CMD...: the best of BENCH_REPEAT (3) bench_timed1 by wall;
# PREP (a shell function, or :) runs before each
bench_timed() {
	local prep=$1 r=
	shift
	for _ in $(seq "${BENCH_REPEAT:-3}"); do
		"$prep"
		r+=$(bench_timed1 "$@")$'\n'
	done
	printf '%s' "$r" | sort -n | head -n 1
}
# bench_gap_rows DB FIGURE: the harness's gaps between consecutive
# iterations (from the iterations' started/elapsed columns) as a share of
# each run in DB, one bench_row per run: "FIGURE, <experiment>", goal 0.1%.
# sqlite3 must be the shell function that loads mmbsamples, or plain.
bench_gap_rows() {
	sqlite3 -batch -noheader -separator "$(printf '\t')" "$1" "
	WITH it AS (SELECT run_id, started, elapsed,
	                   lead(started) OVER (PARTITION BY run_id ORDER BY id) AS next FROM iterations),
	     t AS (SELECT run_id, count(*) AS n, max(started + elapsed) - min(started) AS total,
	                  sum(next - started - elapsed) AS gaps FROM it GROUP BY run_id)
	SELECT r.experiment, t.n, t.total, t.gaps, 100.0 * t.gaps / t.total
	FROM t JOIN runs r ON r.id = t.run_id WHERE t.n > 1 AND t.total > 0 ORDER BY t.run_id" |
	while IFS=$'\t' read -r exp n total gaps share; do
		local per it verdict
		per=$(echo "1000 * $gaps / ($n - 1)" | bc -l)
		it=$(echo "($total - $gaps) / $n" | bc -l)
		printf '%s: %d iterations in %.1f s, harness gaps %.4f s (%.2f ms an iteration) = %.3f%% of the run\n' \
			"$exp" "$n" "$total" "$gaps" "$per" "$share"
		verdict=$(bench_met "$share <= 0.1")
		# what a gap is (two /proc snapshots, the interference record, one
		# commit per iteration) does not shrink with the iteration
		[ "$verdict" = missed ] && verdict=$(printf '%s: its iterations take %.3f s, and %.2f ms between two of them (the snapshots and the commit each iteration gets) is %.2f%% of that' \
			"$verdict" "$it" "$per" "$share")
		bench_row "harness gaps, $2 $exp" "<= 0.1% of the run" "$(printf '%.3f%%' "$share")" - - "$verdict"
	done
}
# bench_sample_bytes DB FIGURE: the bytes a runner's sample takes on disk
# in DB (its ended runs' blocks and their index, by SQLite's dbstat after
# VACUUM) beside the same samples unpacked into sample_values rows, as the
# runner stored them before schema migration 11.  One bench_row, goal 10
# bytes a sample.  The samples view needs mmbsamples (MMBENCH_BUILD's).
bench_sample_bytes() {
	local w n packed rows per verdict used ext bp br
	ext=$(cd "${MMBENCH_BUILD:-build}" && pwd)/sqlite/mmbsamples
	local sq=(command sqlite3 -cmd ".load $ext")
	w=$(mktemp -d)
	cp "$1" "$w/packed.db"
	"${sq[@]}" "$w/packed.db" "PRAGMA wal_checkpoint(TRUNCATE); VACUUM" > /dev/null
	cp "$w/packed.db" "$w/rows.db"
	"${sq[@]}" "$w/rows.db" "BEGIN;
		INSERT INTO sample_values (run_id, iteration_id, series_id, iteration, seq, value)
			SELECT run_id, iteration_id, series_id, iteration, seq, value FROM samples
			WHERE id >= 4611686018427387904 ORDER BY id;
		DELETE FROM sample_blocks; COMMIT; VACUUM"
	used="SELECT sum(pgsize - unused) FROM dbstat WHERE name LIKE 'sample_%'"
	n=$("${sq[@]}" "$w/packed.db" "SELECT coalesce(sum(n), 0) FROM sample_blocks")
	packed=$("${sq[@]}" "$w/packed.db" "$used")
	rows=$("${sq[@]}" "$w/rows.db" "$used")
	per=$("${sq[@]}" "$w/packed.db" "SELECT printf('%.1f', 1.0 * sum(n) / count(*)) FROM sample_blocks")
	rm -rf "$w"
	if [ "${n:-0}" -eq 0 ]; then
		bench_row "runner samples on disk, $2" "<= 10 bytes a sample" - - - "not measured: no packed samples"
		return
	fi
	bp=$(echo "$packed / $n" | bc -l)
	br=$(echo "$rows / $n" | bc -l)
	printf '%s: %d samples, %.1f a block: %.1f bytes a sample packed, %.1f as rows\n' "$2" "$n" "$per" \
		"$bp" "$br"
	verdict=$(bench_met "$bp <= 10")
	# a block's header, its row and its index entry are paid per series and run
	[ "$verdict" = missed ] && verdict="missed: $per samples a block here, and a block's 20-byte header, its row and index entry are paid once per series and run"
	bench_row "runner samples on disk, $2" "<= 10 bytes a sample" "$(printf '%.1f B' "$bp")" \
		"$(printf 'as rows %.1f B' "$br")" "$(printf '%.2f' "$(echo "$packed / $rows" | bc -l)")" \
		"$verdict"
}

# A VM whose balloon reports free pages to the host (free page reporting)
# no longer has memory it freed a few seconds ago: the run that takes it
# back pays the host's faults, 10-30x the system time of a run that
# follows another (usemem lru-file-mmap-read, 512 MiB: 0.7-1.4 s against
# 0.04 s), and in an A/B the side that paid decided the pair.  Where the
# kernel counts what it reported (page_reporting's reported_kib), a bench
# runs a side again when the count moved during it, on either side alike:
# the rule looks at the host, not at the result.
BENCH_REPORTED=/sys/module/page_reporting/parameters/reported_kib
BENCH_RERUN_MAX=5
BENCH_RERUNS=${BENCH_RERUNS:-}	# a file: one line per rerun, per kept run
bench_reported() { cat "$BENCH_REPORTED" 2> /dev/null || echo none; }
# bench_host_reclaimed BEFORE TRIES: true (run it again) when the host took
# memory back since BEFORE (a bench_reported value) and TRIES is below
# BENCH_RERUN_MAX; counts the rerun, or the run kept after the last try
bench_host_reclaimed() {
	[ "$1" != none ] && [ "$1" != "$(bench_reported)" ] || return 1
	if [ "$2" -ge "$BENCH_RERUN_MAX" ]; then
		[ -z "$BENCH_RERUNS" ] || echo kept >> "$BENCH_RERUNS"
		return 1
	fi
	[ -z "$BENCH_RERUNS" ] || echo rerun >> "$BENCH_RERUNS"
}
# bench_run_side CMD...: one side's run, run again while the host took
# memory back during it (bench_host_reclaimed)
bench_run_side() {
	local try r0
	for try in $(seq 1 "$BENCH_RERUN_MAX"); do
		r0=$(bench_reported)
		"$@"
		bench_host_reclaimed "$r0" "$try" || return 0
	done
}
# the notes of the reruns, for the bench's report
bench_reclaim_notes() {
	local n
	n=$(grep -cs rerun "$BENCH_RERUNS")
	[ "${n:-0}" = 0 ] || echo "note: $n side runs were run again: the host took memory back (free page reporting) during them"
	n=$(grep -cs kept "$BENCH_RERUNS")
	[ "${n:-0}" = 0 ] || echo "note: $n side runs kept after $BENCH_RERUN_MAX tries although the host took memory back during them"
	[ "$(bench_reported)" = none ] && grep -qs . /sys/bus/virtio/drivers/virtio_balloon/virtio*/features &&
		echo "note: a virtio balloon is present and this kernel does not count reported free pages: a run after a pause may pay the host's faults (docs/workloads.md)"
	return 0
}
# Some VM kernels let the host wait before it takes a freed page
# (page_reporting's min_free_ms: a page is reported only once it has been
# free that long).  Where that knob exists, a fidelity bench holds
# reporting off for its duration, so no side pays for memory the other
# freed: the old value goes to a journal first, and is put back at exit,
# or by the next bench start after a crash (bench_knobs_replay).
BENCH_MIN_FREE=${BENCH_MIN_FREE:-/sys/module/page_reporting/parameters/min_free_ms}
BENCH_KNOB_JOURNAL=${BENCH_KNOB_JOURNAL:-/var/tmp/mmbench-bench-knobs}
# put back what a journal holds; only the knob above, only a number
bench_knobs_replay() {
	local j=$BENCH_KNOB_JOURNAL path val
	[ -e "$j" ] || [ -L "$j" ] || return 0
	if [ -L "$j" ] || [ ! -O "$j" ] || [ -n "$(find "$j" -maxdepth 0 -perm /022)" ]; then
		echo "bench: refusing the knob journal $j: a symlink, not ours, or writable by others" >&2
		return 1
	fi
	while IFS=$'\t' read -r path val; do
		if [ "$path" = "$BENCH_MIN_FREE" ] && [[ $val =~ ^[0-9]{1,9}$ ]]; then
			echo "$val" > "$path" || echo "bench: could not put back $path = $val" >&2
		else
			echo "bench: $j: skipping an entry that is not a knob the benches set" >&2
		fi
	done < "$j"
	rm -f "$j"
}
# bench_hold_reporting: hold free page reporting off (prints what it did);
# the caller's EXIT trap must call bench_knobs_replay
bench_hold_reporting() {
	local old
	bench_knobs_replay || return 1
	[ -w "$BENCH_MIN_FREE" ] || return 0
	old=$(cat "$BENCH_MIN_FREE") || return 0
	[[ $old =~ ^[0-9]+$ ]] || return 0
	(umask 022; printf '%s\t%s\n' "$BENCH_MIN_FREE" "$old" > "$BENCH_KNOB_JOURNAL") || return 1
	# the kernel caps the value (600000 is refused here): the largest taken
	for v in 300000 120000 60000; do
		if echo "$v" > "$BENCH_MIN_FREE" 2> /dev/null; then
			echo "holding free page reporting off: $BENCH_MIN_FREE $old -> $v (put back at exit)"
			return 0
		fi
	done
	rm -f "$BENCH_KNOB_JOURNAL"
}
