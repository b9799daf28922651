#!/bin/bash
# `environment: swap: { zram: ... }` where swapon(8) cannot set a priority
# (an arm64 guest's busybox has no `swapon -p`) or is missing: the harness
# calls swapon(2) and swapoff(2) itself, so the swap is set up, recorded
# and taken down with only mkswap on PATH.  Needs root and zram.
. "$(dirname "$0")/../e2e-lib.sh"
need_root "sets up zram swap"
[ -e /sys/block/zram0 ] || [ -e /sys/class/zram-control ] || modprobe zram 2>/dev/null ||
	skip "no zram in this kernel"
command -v mkswap >/dev/null || skip "mkswap not installed"
swaps() { tail -n +2 /proc/swaps | awk '{ print $1 }' | sort; }
swaps0=$(swaps)
# a PATH whose swapon and swapoff fail as busybox's would on -p
mkdir -p "$TMP/bin"
for p in swapon swapoff; do
	printf '#!/bin/sh\necho "%s: invalid option -- '"'"'p'"'"'" >&2\nexit 1\n' $p >"$TMP/bin/$p"
	chmod +x "$TMP/bin/$p"
done
ln -s "$(command -v mkswap)" "$TMP/bin/mkswap"
cat >"$TMP/s.yaml" <<EOC
experiment: zram-no-swapon
iterations: 1
warmup: 0
environment:
  swap: { zram: 16M }
workloads:
  - name: skeleton
EOC
PATH="$TMP/bin:$PATH" run "$TMP/s.yaml"
cat "$TMP/out" "$TMP/err"
[ $rc = 0 ] || die "run exited $rc"
[ "$(q "SELECT value FROM run_env WHERE key = 'swap.zram'")" != "" ] || die "no zram swap recorded"
grep -q "invalid option" "$TMP/err" && die "a swapon/swapoff program was run"
[ "$(swaps)" = "$swaps0" ] || die "swap not taken down: $(swaps | tr '\n' ' ')"
echo ok
