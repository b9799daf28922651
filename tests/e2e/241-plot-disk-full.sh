#!/bin/bash
# Issue 42 item 11: plot on a full disk said "wrote 1 plots" and exited 0
# with 5 of 6 pictures missing (gnuplot exits 0 leaving a cut file).
# Swept over the free space of a small tmpfs: plot and report either write
# every picture they list and exit 0, or exit 1 naming each picture they
# could not write, leave no temporary file and print no "wrote".
. "$(dirname "$0")/../e2e-lib.sh"
need_root "mounts a small tmpfs"
command -v gnuplot > /dev/null || skip "gnuplot is not installed (apt-get install gnuplot-nox)"
FULL=$TMP/full
mkdir -p "$FULL"
mount -t tmpfs -o size=512k mmbench-e2e-plotfull "$FULL" || skip "cannot mount a tmpfs here"
trap 'umount "$FULL" 2>/dev/null || true; cleanup' EXIT
cd "$TMP"
csv() {
	echo "workload,metric,variant,iteration,value"
	for m in a b c d; do for i in 1 2 3 4 5; do echo "w,$m,,$i,$(( $1 + i * 7 + ${#m} ))"; done; done
}
csv 100 > base.csv
csv 130 > new.csv
"$MMB" -q import --name base base.csv
"$MMB" -q import --name new new.csv
avail_kb() { df -Pk "$FULL" | awk 'NR == 2 { print $4 }'; }
fill_to() {	# leave about $1 KiB free
	rm -f "$FULL/filler"
	dd if=/dev/zero of="$FULL/filler" bs=4k count=$(( ($(avail_kb) - $1) / 4 )) 2>/dev/null || true
}
"$MMB" plot --out "$FULL/all" base new > list 2> err || die "plot with room: $(cat err)"
want=$(wc -l < list)
[ "$want" -ge 4 ] || die "expected 4+ pictures, got $want"
need=$(du -sk "$FULL/all" | cut -f1)
rm -rf "$FULL/all"
partial=0
for cmd in plot report; do
	for free in $(seq 8 24 $((need + 24))); do
		rm -rf "$FULL/out"
		fill_to "$free"
		rc=0
		"$MMB" "$cmd" --out "$FULL/out" base new > list 2> err || rc=$?
		left=$(ls -A "$FULL/out" 2> /dev/null | grep '^\.' || true)
		[ -z "$left" ] || die "$cmd, ${free}K free: temporary files left: $left"
		if [ $rc = 0 ]; then
			while read -r f; do [ -s "$f" ] || die "$cmd, ${free}K free: $f listed, not written"; done < list
			[ "$(grep -c '\.png$' list)" = "$want" ] || die "$cmd, ${free}K free: exit 0 with $(grep -c '\.png$' list) of $want pictures: $(cat err)"
			grep -q 'skipped plot' err && die "$cmd, ${free}K free: a picture skipped, exit 0: $(cat err)"
			continue
		fi
		[ $rc = 1 ] || die "$cmd, ${free}K free: exit $rc: $(cat err)"
		grep -q '^error: ' err || die "$cmd, ${free}K free: exit 1 without an error"
		grep -q 'wrote' err && die "$cmd, ${free}K free: failed but says: $(grep wrote err)"
		grep -q "^error: cannot write plot $FULL/out/.*\.png: no whole picture written" err && partial=1
	done
done
[ $partial = 1 ] || die "no step left room for some pictures only (the case of the issue)"
rm -f "$FULL/filler"
"$MMB" plot --out "$FULL/again" base new > list 2> err || die "plot after space is back: $(cat err)"
echo ok
