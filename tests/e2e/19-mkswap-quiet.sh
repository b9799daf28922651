#!/bin/bash
# `environment: swap: { zram: ... }` sets the swap up without mkswap's or
# swapon's own chatter on the user's terminal (it is kept to explain a
# failure); the swap is taken down afterwards.  Needs root and zram.
. "$(dirname "$0")/../e2e-lib.sh"
need_root "sets up zram swap"
[ -e /sys/block/zram0 ] || [ -e /sys/class/zram-control ] || modprobe zram 2>/dev/null ||
	skip "no zram in this kernel"
command -v mkswap >/dev/null || skip "mkswap not installed"
swaps() { tail -n +2 /proc/swaps | awk '{ print $1 }' | sort; }
swaps0=$(swaps)
cat >"$TMP/s.yaml" <<EOC
experiment: mkswap-quiet
iterations: 1
warmup: 0
environment:
  swap: { zram: 16M }
workloads:
  - name: skeleton
EOC
# not -q: everything a user would see
for _ in $(seq 1 120); do
	set +e
	"$MMB" run "$TMP/s.yaml" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	set -e
	[ $rc -ne 0 ] && grep -q "runs must not overlap" "$TMP/err" || break
	sleep 5
done
cat "$TMP/out" "$TMP/err"
[ $rc = 0 ] || die "run exited $rc"
[ "$(q "SELECT value FROM run_env WHERE key = 'swap.zram'")" != "" ] || die "no zram swap recorded"
if grep -iE 'swapspace|UUID=|no label' "$TMP/out" "$TMP/err"; then
	die "mkswap's output reached the terminal"
fi
[ "$(swaps)" = "$swaps0" ] || die "swap not taken down: $(swaps | tr '\n' ' ')"
echo ok
