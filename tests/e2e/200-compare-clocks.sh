#!/bin/bash
# Runs on the virtual clock (vm run --clock virtual: runs.accel
# tcg-icount) are never compared with runs timed in host time unless asked
# (--mix-clocks), and every layout says the clock of VM runs
# (docs/kernel-ab.md, "The virtual clock").  No kernel is booted: imported
# runs are given the accelerators a VM run records.
. "$(dirname "$0")/../e2e-lib.sh"

csv() {	# FILE BASE: 5 values around BASE
	{
		echo "workload,metric,variant,iteration,value"
		for i in 1 2 3 4 5; do printf 'aim9,brk_test.ops_per_sec,,%d,%d\n' "$i" $(( $2 + i )); done
	} > "$1"
}
csv "$TMP/a.csv" 1000
csv "$TMP/b.csv" 2000
for l in vbase vnew rnew hostbase hostnew; do
	"$MMB" import --name "$l" "$TMP/$([ "${l#*new}" != "$l" ] && echo b || echo a).csv" >/dev/null 2>&1 ||
		die "import $l failed"
done
q "UPDATE runs SET accel = 'tcg-icount' WHERE kernel_id IN (SELECT id FROM kernels WHERE label IN ('vbase', 'vnew'))"
q "UPDATE runs SET accel = 'tcg' WHERE kernel_id IN (SELECT id FROM kernels WHERE label = 'rnew')"

# two clocks: refused, naming the labels on each
set +e
"$MMB" compare vbase rnew >"$TMP/out" 2>"$TMP/err"; rc=$?
set -e
[ $rc = 2 ] || die "compare across clocks: exit $rc, want 2"
grep -q "different clocks: virtual (guest instructions) for vbase, real (host time) for rnew" "$TMP/err" ||
	die "the refusal does not name the labels: $(cat "$TMP/err")"
[ ! -s "$TMP/out" ] || die "a refused comparison printed a table"
for cmd in "plot --out $TMP/p" "report --out $TMP/r"; do
	set +e
	# shellcheck disable=SC2086 # the command's words
	"$MMB" $cmd vbase rnew >/dev/null 2>"$TMP/err"; rc=$?
	set -e
	[ $rc = 2 ] || die "$cmd across clocks: exit $rc, want 2"
done

# asked for: compared, and said so in every layout
"$MMB" compare --mix-clocks vbase rnew >"$TMP/out" || die "compare --mix-clocks failed"
grep -q "^clock: MIXED" "$TMP/out" || die "no mixed clock line: $(cat "$TMP/out")"
"$MMB" compare --mix-clocks --format json vbase rnew | grep -q '"clock":"mixed"' ||
	die "json does not say mixed"

# one virtual clock: the line, the JSON key, the CSV column, the mmtests and lkp notes
"$MMB" compare vbase vnew >"$TMP/out" || die "compare of two virtual-clock labels failed"
# the default text wraps at 80 columns: its continuation lines joined
unwrap "$TMP/out" | grep -q "^clock: virtual (guest instructions; cache, TLB and memory latency are not modelled)" ||
	die "no virtual clock line: $(cat "$TMP/out")"
for f in mmtests lkp markdown; do
	"$MMB" compare --format $f vbase vnew | grep -q "clock: virtual" || die "--format $f does not state the clock"
done
"$MMB" compare --format json vbase vnew | grep -q '"clock":"virtual"' || die "json does not state the clock"
"$MMB" compare --format csv vbase vnew >"$TMP/csv"
head -1 "$TMP/csv" | grep -q ",clock,settings_differ$" || die "no clock column in the CSV header"
[ "$(tail -1 "$TMP/csv" | awk -F, '{ print $(NF - 1) }')" = virtual ] || die "the CSV row's clock is not virtual"

# runs on the host itself: no clock line (nothing else was possible), CSV says real
"$MMB" compare hostbase hostnew >"$TMP/out" || die "compare of host runs failed"
grep -q "^clock:" "$TMP/out" && die "a host-only comparison states a clock"
"$MMB" compare --format csv hostbase hostnew | tail -1 | grep -q ",real,[^,]*$" || die "CSV clock of host runs is not real"
echo "ok"
