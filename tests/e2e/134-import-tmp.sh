#!/bin/bash
# Issue 27 item 11: an export-JSON import killed by TERM/HUP/KILL left its
# temporary database in $TMPDIR (5 kills: 18 files, 26 MB).  A signal
# removes it; what a SIGKILL leaves (its pid in the name, the pid gone)
# the next import removes.
. "$(dirname "$0")/../e2e-lib.sh"
cd "$TMP"
export TMPDIR=$TMP/t
mkdir -p "$TMPDIR"
{
	echo "workload,metric,variant,iteration,value"
	for i in $(seq 1 20000); do echo "w,m$((i % 50)),,$i,$i"; done
} > big.csv
"$MMB" import --db src.db --name big big.csv > /dev/null
"$MMB" export --db src.db --format json > big.json 2> /dev/null

# what a SIGKILLed import left: a dead pid's files, and a live one's kept
dead=999999999
for s in "" -wal -shm -journal; do echo x > "$TMPDIR/mmbench-import-$dead-AbCdEf$s"; done
echo x > "$TMPDIR/mmbench-import-$$-LiVeOn"
echo x > "$TMPDIR/other-file"
"$MMB" import --db a.db big.json > /dev/null 2> err || die "import: $(cat err)"
ls "$TMPDIR"/mmbench-import-$dead-* 2> /dev/null && die "a killed import's files were not removed"
[ -e "$TMPDIR/mmbench-import-$$-LiVeOn" ] || die "a running import's file was removed"
[ -e "$TMPDIR/other-file" ] || die "another file was removed"
rm "$TMPDIR/mmbench-import-$$-LiVeOn"

# TERM and HUP while the temporary database exists: it goes with the import
for sig in TERM HUP; do
	caught=
	for _ in 1 2 3 4 5; do
		rm -f b.db
		"$MMB" import --db b.db big.json > /dev/null 2>&1 &
		pid=$!
		for _ in $(seq 1 2000); do
			ls "$TMPDIR"/mmbench-import-$pid-* > /dev/null 2>&1 && break
			kill -0 $pid 2> /dev/null || break
		done
		if ls "$TMPDIR"/mmbench-import-$pid-* > /dev/null 2>&1; then
			kill -$sig $pid 2> /dev/null && caught=1
		fi
		wait $pid 2> /dev/null || true
		[ -n "$caught" ] && break
	done
	[ -n "$caught" ] || echo "note: the import finished before $sig could be sent"
	left=$(ls "$TMPDIR" | grep mmbench-import || true)
	[ -z "$left" ] || die "SIG$sig left $left"
done
echo ok
