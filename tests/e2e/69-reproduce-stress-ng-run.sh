#!/bin/bash
# e2e: `mmbench reproduce` of a stress-ng report on the running kernel
# (--name says which commit it is), against the stand-in stress-ng of
# tests/fixtures/stress-ng at a rate per label: the base runs, then the
# suspect, and the 0-day table shows our KPI row (the report's headline,
# pagemove.page_remaps_per_sec, matched by name) over the report's, the
# verdict line; the report's stress-ng.pagemove rows beside it compared as
# the workload's own metrics, the others listed as not measured; the
# stress-ng version is recorded with the runs.
. "$(dirname "$0")/../e2e-lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
[ -x "$MMB" ] || die "$MMB not built"
[ -f "${MMBENCH_BUILD:-build}/workloads/stress-ng.so" ] || die "stress-ng plugin not built"
command -v sqlite3 >/dev/null || skip "sqlite3 CLI not installed"
export MMBENCH_STATE=${MMBENCH_STATE:-$TMP/state}
mkdir -p "$TMP/fakebin"
ln -s "$top/tests/fixtures/stress-ng/fake-stress-ng" "$TMP/fakebin/stress-ng"
export PATH=$TMP/fakebin:$PATH FAKE_SNG_TURN=$TMP/turn
sed 's/^\ttesttime: 60s/\ttesttime: 1s/' "$top/tests/fixtures/reports/sng-pagemove.txt" >"$TMP/r.txt"

FAKE_SNG_RATE=100 "$MMB" -q reproduce --runs 3 --name 1a2b3c4d5e --db "$MMBENCH_DB" "$TMP/r.txt" \
	>"$TMP/o1" 2>"$TMP/e1" || die "base run failed: $(cat "$TMP/e1")"
grep -q "recording under label '1a2b3c4d5e'" "$TMP/o1" || die "base label not said"
FAKE_SNG_RATE=80 "$MMB" -q reproduce --runs 3 --name 6f7a8b9c0d --db "$MMBENCH_DB" "$TMP/r.txt" \
	>"$TMP/o2" 2>"$TMP/e2" || die "suspect run failed: $(cat "$TMP/e2")"
grep -Eq '^ +10100 +-19\.8% +8100 +stress-ng\.pagemove\.page_remaps_per_sec  \(here, n=3/3\)$' "$TMP/o2" ||
	die "our KPI row: $(cat "$TMP/o2")"
grep -q '^     30499           -11.0%      27144        stress-ng.pagemove.page_remaps_per_sec  (report, lkp-spr-r02)$' "$TMP/o2" ||
	die "the report's KPI row"
# (a shared machine's load can make the pair inconclusive, and says so)
grep -Eq '^suspect 6f7a8b9c0d: (report: -11\.0%, here: -19\.8% \[CI [-0-9.]+, [-0-9.]+\], p=[0-9.e-]+: reproduced|inconclusive: interference differs)' "$TMP/o2" ||
	die "verdict: $(grep '^suspect' "$TMP/o2")"
grep -q "stress-ng.pagemove.ops_per_sec 6f7a8b9c0d: \(report -10.8%, here -19.8% .*: agrees\|inconclusive: interference\)" "$TMP/o2" ||
	die "the report's ops_per_sec row beside the KPI: $(cat "$TMP/o2")"
grep -q "not measured here (no such monitor in mmbench): mpstat.cpu.all.sys%$" "$TMP/o2" || die "unmeasured rows"
[ "$(q "select count(*) from run_env where key = 'tool.stress-ng' and value = '0.14.00'")" = 2 ] ||
	die "tool.stress-ng not recorded"
echo ok
