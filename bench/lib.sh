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
