#!/bin/bash
# pte-mapped-folio plugin on this kernel (needs root and mTHP sysfs):
#  - fork with 4K, 16K, 64K and 2048K folios: every iteration passes the
#    folio verification (smaps, mTHP stats, kpageflags) and stores a
#    positive `seconds` sample (unit s, lower is better); the mTHP stats
#    counters seen from outside moved by at least the folios asked for;
#  - every other action (munmap, dontneed, pte-dontneed, cow, cow-reuse)
#    measures;
#  - the `sabotage` test hook (THP turned off behind the benchmark's back)
#    FAILS the iteration with the reason, for 16K, 2048K and 4K, and the
#    knobs are restored afterwards;
#  - a size the kernel lacks is skipped with the reason; a folio size that
#    is not a power of two is a config error naming file:line:col.
. "$(dirname "$0")/../e2e-lib.sh"
command -v sqlite3 >/dev/null || skip "sqlite3 CLI not installed"
[ -f "$MMBENCH_BUILD/workloads/pte-mapped-folio.so" ] || die "pte-mapped-folio.so not built"
need_root "sets per-size mTHP knobs"
THP=/sys/kernel/mm/transparent_hugepage
for kb in 16 64 2048; do
	[ -e $THP/hugepages-${kb}kB/enabled ] || skip "kernel lacks $THP/hugepages-${kb}kB (mTHP)"
done
cur() { sed 's/.*\[\(.*\)\].*/\1/' "$1"; }
# The per-size knobs the plugin sets (through the host, which restores them).
knobs() { for f in $THP/hugepages-*kB/enabled; do [ -e "$f" ] && echo "$f $(cur "$f")"; done; }
# Other test suites on a shared machine may flip knobs for a moment too:
# give them some time to put theirs back before calling it a leak.
restored() {
	for _ in $(seq 1 30); do
		[ "$(knobs)" = "$before" ] && return 0
		sleep 1
	done
	die "mTHP knobs not restored $1: $(diff <(echo "$before") <(knobs) | tr '\n' ' ')"
}
stat() { cat $THP/hugepages-$1kB/stats/anon_fault_alloc; }


before=$(knobs)
cat > "$TMP/f.yaml" <<EOC
experiment: pmf-e2e
iterations: 2
warmup: 0
environment:
  pin_cpu: 0
workloads:
  - name: pte-mapped-folio
    params:
      test: [fork]
      folio_kb: [4, 16, 64, 2048]
      size: 64M
EOC
# Another process changing THP knobs meanwhile (other test suites on a
# shared machine) fails the verification, as it should: retry a few times
# then; a plugin that cannot create the folios fails every attempt.
for attempt in 1 2 3 4; do
	rm -f "$MMBENCH_DB"*
	a16=$(stat 16) a64=$(stat 64) a2048=$(stat 2048)
	run "$TMP/f.yaml"
	[ $rc = 0 ] && break
	grep -q "folios are not" "$TMP/err" || break
	echo "attempt $attempt: $(grep "folios are not" "$TMP/err" | head -1)"
	sleep 2
done
cat "$TMP/err"
[ $rc = 0 ] || die "mmbench run exited $rc: $(q "SELECT variant, reason FROM iterations WHERE status != 'ok'")"
[ "$(q "SELECT status FROM runs")" = complete ] || die "run not complete"
for kb in 4 16 64 2048; do
	v="test=fork,folio_kb=$kb"
	row=$(q "SELECT count(*), sum(value > 0), group_concat(DISTINCT unit), group_concat(DISTINCT better)
		 FROM samples WHERE workload = 'pte-mapped-folio' AND variant = '$v' AND metric = 'seconds'")
	[ "$row" = "2|2|s|-1" ] || die "$v: expected 2 positive samples in s, lower better; got '$row'"
	echo "$v: $(q "SELECT group_concat(printf('%.6f', value), ' ') FROM samples WHERE variant = '$v'") s"
done
# The folios really were created: 2 iterations x 64M / folio size, at least.
for kb in 16 64 2048; do
	eval "d=\$(( \$(stat $kb) - a$kb ))"
	want=$(( 2 * 64 * 1024 / kb ))
	[ "$d" -ge "$want" ] || die "hugepages-${kb}kB/stats/anon_fault_alloc moved by $d, expected >= $want"
	echo "hugepages-${kb}kB anon_fault_alloc +$d (>= $want)"
done
restored "after the fork run"

# Every action measures.
cat > "$TMP/g.yaml" <<EOC
experiment: pmf-e2e-tests
iterations: 1
warmup: 0
environment:
  pin_cpu: 0
workloads:
  - name: pte-mapped-folio
    params:
      test: [munmap, dontneed, pte-dontneed, cow, cow-reuse]
      folio_kb: 64
      size: 16M
EOC
for attempt in 1 2 3 4; do
	rm -f "$MMBENCH_DB"*
	run "$TMP/g.yaml"
	[ $rc = 0 ] && break
	grep -q "folios are not" "$TMP/err" || break
	echo "attempt $attempt: $(grep "folios are not" "$TMP/err" | head -1)"
	sleep 2
done
[ $rc = 0 ] || die "actions run exited $rc: $(cat "$TMP/err")"
[ "$(q "SELECT count(*) FROM samples WHERE metric = 'seconds' AND value > 0")" = 5 ] || die "expected 5 positive samples, one per action"

# The verification fails runs whose folios are not what was asked for.
cat > "$TMP/s.yaml" <<EOC
experiment: pmf-e2e-sabotage
iterations: 1
warmup: 0
workloads:
  - name: pte-mapped-folio
    params:
      folio_kb: [16, 2048, 4]
      size: 16M
      sabotage: true
EOC
rm -f "$MMBENCH_DB"*
run "$TMP/s.yaml"
[ $rc = 1 ] || die "sabotaged run: expected exit 1, got $rc"
[ "$(q "SELECT count(*) FROM samples")" = 0 ] || die "a sabotaged iteration stored samples"
for kb in 16 2048 4; do
	r=$(q "SELECT reason FROM iterations WHERE variant = 'folio_kb=$kb'")
	echo "sabotage folio_kb=$kb: $r"
	case $r in "folios are not ${kb}K PTE-mapped: "*) ;; *) die "folio_kb=$kb: wrong reason '$r'" ;; esac
done
restored "after the sabotaged run"

# A size the kernel lacks is skipped with the reason, not failed.
lack=""
for kb in 8 16 32 64 128 256 512 1024; do
	[ -e $THP/hugepages-${kb}kB/enabled ] || { lack=$kb; break; }
done
if [ -n "$lack" ]; then
	cat > "$TMP/k.yaml" <<EOC
experiment: pmf-e2e-lacks
iterations: 1
warmup: 0
workloads:
  - name: pte-mapped-folio
    params:
      folio_kb: $lack
      size: 16M
EOC
	rm -f "$MMBENCH_DB"*
	run "$TMP/k.yaml"
	[ "$(q "SELECT status || ': ' || reason FROM iterations")" = "skipped: kernel lacks hugepages-${lack}kB" ] ||
		die "folio_kb=$lack: expected a skip, got '$(q "SELECT status, reason FROM iterations")' (exit $rc)"
else
	echo "every size 8K..1024K present: no missing size to skip"
fi

cat > "$TMP/bad.yaml" <<EOC
experiment: bad
workloads:
  - name: pte-mapped-folio
    params:
      folio_kb: 48
EOC
run "$TMP/bad.yaml"
[ $rc = 2 ] || die "folio_kb 48: expected exit 2, got $rc"
grep -q "bad.yaml:3:11:.*power of two" "$TMP/err" || die "folio_kb 48 message: $(cat "$TMP/err")"
echo "ok: pte-mapped-folio e2e"
