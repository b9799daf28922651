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
