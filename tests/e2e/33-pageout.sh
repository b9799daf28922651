#!/bin/bash
# pageout plugin: with zram swap set up by the harness (environment
# `swap: { zram: 256M }`), pages are seen going out and coming back
# (per-iteration vmstat deltas of pswpout/pswpin), the four metrics are
# positive with unit s, lower is better, and seconds_per_iteration x rounds
# = elapsed; the swap is taken down afterwards.  Without swap the iteration
# is skipped with the reason "no swap".  Needs root and zram.
. "$(dirname "$0")/../e2e-lib.sh"
command -v sqlite3 >/dev/null || skip "sqlite3 CLI not installed"
[ -f "$MMBENCH_BUILD/workloads/pageout.so" ] || die "pageout.so not built"
need_root "sets up zram swap"
[ -e /sys/block/zram0 ] || [ -e /sys/class/zram-control ] || modprobe zram 2>/dev/null ||
	skip "no zram in this kernel"
command -v mkswap >/dev/null || skip "mkswap not installed"

swaps() { tail -n +2 /proc/swaps | awk '{ print $1 }' | sort; }

ROUNDS=40
swaps0=$(swaps)
cat > "$TMP/p.yaml" <<EOC
experiment: pageout-e2e
iterations: 2
warmup: 0
environment:
  pin_cpu: 0
  swap: { zram: 256M }
workloads:
  - name: pageout
    params:
      iterations: $ROUNDS
      mapping: [shared, private]
EOC
run "$TMP/p.yaml"
cat "$TMP/err"
[ $rc = 0 ] || die "mmbench run exited $rc: $(q "SELECT variant, reason FROM iterations WHERE status != 'ok'")"
[ "$(q "SELECT status FROM runs")" = complete ] || die "run not complete"
[ "$(q "SELECT count(*) FROM iterations WHERE status = 'ok'")" = 4 ] || die "expected 4 ok iterations"
for m in seconds_per_iteration elapsed system user; do
	row=$(q "SELECT count(*), sum(value > 0), group_concat(DISTINCT unit), group_concat(DISTINCT better)
		 FROM samples WHERE workload = 'pageout' AND metric = '$m'")
	case $m in
	user) [ "${row%%|*}" = 4 ] && [ "${row#*|*|}" = "s|-1" ] || die "$m: '$row'" ;;	# may round to 0
	*) [ "$row" = "4|4|s|-1" ] || die "$m: expected 4 positive samples in s, lower better; got '$row'" ;;
	esac
done
bad=$(q "SELECT count(*) FROM samples p JOIN samples e ON e.iteration_id = p.iteration_id
	 WHERE p.metric = 'seconds_per_iteration' AND e.metric = 'elapsed'
	 AND abs(p.value * $ROUNDS - e.value) > 1e-9 * e.value")
[ "$bad" = 0 ] || die "seconds_per_iteration x $ROUNDS != elapsed in $bad iterations"
# 1 MiB = 256 pages out and back in every round, seen by the harness' monitor
want=$(( 256 * ROUNDS ))
while IFS='|' read -r variant out in; do
	echo "$variant: pswpout +$out, pswpin +$in (one iteration; >= $want expected out)"
	awk -v o="$out" -v i="$in" -v w="$want" 'BEGIN { exit !(o >= w && i >= w - 256) }' ||
		die "$variant: pages did not go out and come back (pswpout +$out, pswpin +$in, want $want)"
done < <(q "SELECT it.variant, o.delta, i.delta FROM iterations it
	 JOIN monitors o ON o.iteration_id = it.id AND o.source = 'vmstat' AND o.key = 'pswpout'
	 JOIN monitors i ON i.iteration_id = it.id AND i.source = 'vmstat' AND i.key = 'pswpin'")
[ "$(q "SELECT count(*) FROM monitors WHERE source = 'vmstat' AND key = 'pswpout'")" = 4 ] || die "no pswpout monitor deltas"
[ "$(swaps)" = "$swaps0" ] || die "swap not taken down: $(swaps | tr '\n' ' ')"

# No swap: skipped with the reason (only when the machine has none itself).
if [ -z "$swaps0" ]; then
	cat > "$TMP/n.yaml" <<EOC
experiment: pageout-noswap
iterations: 1
warmup: 0
workloads:
  - name: pageout
    params:
      iterations: 5
EOC
	rm -f "$MMBENCH_DB"*
	run "$TMP/n.yaml"
	[ "$(q "SELECT status || ': ' || reason FROM iterations")" = "skipped: no swap" ] ||
		die "without swap: expected 'skipped: no swap', got '$(q "SELECT status, reason FROM iterations")' (exit $rc)"
	[ "$(q "SELECT count(*) FROM samples")" = 0 ] || die "samples without swap"
else
	echo "the machine has swap of its own ($swaps0): no-swap skip not checked"
fi
echo "ok: pageout e2e"
