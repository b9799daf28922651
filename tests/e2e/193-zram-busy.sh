#!/bin/bash
# Issue 27 item 12: `swap: {zram: ...}` while zram0 is in use hot-adds a
# device through /sys/class/zram-control and left it behind.  The hot-add
# is journaled: the device goes at the run's end, and after a run killed
# with SIGKILL, at `mmbench restore`.  Needs root, zram-control and mkswap;
# zram0 is made busy here (sized, not swapped on) and reset afterwards.
. "$(dirname "$0")/../e2e-lib.sh"
need_root "hot-adds zram devices"
[ -e /sys/class/zram-control ] || modprobe zram 2> /dev/null || true
[ -e /sys/class/zram-control/hot_add ] || skip "no zram-control in this kernel"
command -v mkswap > /dev/null || skip "mkswap not installed"
devs() { ls -d /sys/block/zram* 2> /dev/null | sort | tr '\n' ' '; }
made_busy=
if [ "$(cat /sys/block/zram0/disksize)" = 0 ]; then
	echo 16M > /sys/block/zram0/disksize || skip "cannot size zram0"
	made_busy=1
fi
trap '[ -z "$made_busy" ] || echo 1 > /sys/block/zram0/reset; rm -rf "$TMP"' EXIT
free_devs=$(for d in /sys/block/zram*; do if [ "$(cat "$d/disksize")" = 0 ]; then echo "$d"; fi; done)
[ -z "$free_devs" ] || skip "a free zram device exists ($free_devs): nothing would be hot-added"
before=$(devs)
conf() {	# ITERATIONS SCRIPT
	cat << EOC
experiment: zram-busy
iterations: $1
warmup: 0
timeout: 120
environment:
  swap: { zram: 16M }
workloads:
  - name: faulty
    params: { script: "$2", state_dir: "$TMP" }
EOC
}
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
conf 1 ok > "$TMP/ok.yaml"
"$MMB" run "$TMP/ok.yaml" -q > "$TMP/out" 2> "$TMP/err" || die "run failed: $(cat "$TMP/err")"
dev=$(q "SELECT value FROM run_env WHERE key = 'swap.zram'")
[ -n "$dev" ] && [ "$dev" != /dev/zram0 ] || die "no hot-added device recorded (got '$dev')"
[ "$(devs)" = "$before" ] || die "after a run: zram devices $(devs), before: $before"
# killed mid-run: the journal has the hot-add, restore removes it
rm -f "$TMP/faulty.counter"
conf 1 hang > "$TMP/hang.yaml"
"$MMB" run "$TMP/hang.yaml" -q > "$TMP/out" 2> "$TMP/err" &
pid=$!
for _ in $(seq 1 300); do
	grep -q "^/dev/zram[1-9]" /proc/swaps && break
	sleep 0.1
done
grep -q "^/dev/zram[1-9]" /proc/swaps || { kill -9 $pid; die "the run never swapped on a hot-added device"; }
kill -9 $pid
wait $pid 2> /dev/null || true
[ "$(devs)" != "$before" ] || die "the killed run left no device to restore (test not exercised)"
"$MMB" restore > "$TMP/out" 2>&1 || die "restore failed: $(cat "$TMP/out")"
[ "$(devs)" = "$before" ] || die "after restore: zram devices $(devs), before: $before"
grep -q "^/dev/zram[1-9]" /proc/swaps && die "restore left the swap on"
echo ok
