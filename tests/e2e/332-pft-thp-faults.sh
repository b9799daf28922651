#!/bin/bash
# Issue 45 item 12: pft warned "N pages touched but M minor faults measured
# (100% off; THP or fault-around?)" in a run whose environment set THP to
# always itself.  With THP on for the region a fault maps a whole folio, so
# pft reads the THP state (through the host's knob reader) and expects
# pages / folio pages .. pages faults: no warning then.  Needs root (the
# run sets THP always, journaled and restored).
. "$(dirname "$0")/../e2e-lib.sh"
need_root "sets /sys/kernel/mm/transparent_hugepage/enabled for the run"
THP=/sys/kernel/mm/transparent_hugepage
[ -w $THP/enabled ] || skip "no writable THP sysfs here"
# a PMD size with its own knob must inherit the top-level setting
pmd_kb=$(( $(cat $THP/hpage_pmd_size 2>/dev/null || echo 2097152) / 1024 ))
mthp=
[ -e "$THP/hugepages-${pmd_kb}kB/enabled" ] && mthp="  mthp: { ${pmd_kb}K: inherit }"
cat > "$TMP/pft.yaml" <<EOC
experiment: pft-thp
iterations: 2
warmup: 0
environment:
  thp: always
$mthp
workloads:
  - name: pft
    params: { size: 64M, clients: 1, mode: threads }
EOC
run "$TMP/pft.yaml"
[ $rc = 0 ] || die "run: exit $rc: $(cat "$TMP/err")"
# THP really handed out huge pages (else this run shows nothing about the warning)
thp=$(q "SELECT coalesce(sum(delta), 0) FROM monitors WHERE key = 'thp_fault_alloc'")
awk -v n="$thp" 'BEGIN { exit !(n > 0) }' ||
	skip "no THP faults here (thp_fault_alloc $thp): memory too fragmented for huge pages"
! grep -q 'pages touched but' "$TMP/err" ||
	die "pft warned about the faults THP saves: $(grep 'pages touched' "$TMP/err")"
[ "$(q "SELECT count(*) FROM samples WHERE metric = 'faults/sec' AND value > 0")" = 2 ] ||
	die "no pft samples recorded"
echo ok
