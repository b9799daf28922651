#!/bin/bash
# Issue 42 items 7 and 8: a reader creates no file beside a WAL database
# that is not its user's, or in a folder it cannot write.
# - item 8: list, show, export (both formats), compare and merge (as the
#   source) read a WAL database in a folder they cannot write (and, as
#   root, on a read-only bind mount); they failed "unable to open database
#   file" / "attempt to write a readonly database";
# - item 7 (root: two users by setpriv): user B's `list runs` on user A's
#   WAL database in a sticky shared folder left -wal/-shm owned by B, and
#   A's next import failed "attempt to write a readonly database"; B now
#   reads it as immutable when there is no -wal, through A's -wal and -shm
#   read-only when A has it open (or died with it open), and a writer that
#   changes the file under an immutable read fails the read.
. "$(dirname "$0")/../e2e-lib.sh"
MMB=$(cd "$(dirname "$MMB")" && pwd)/$(basename "$MMB")
cd "$TMP"
printf 'workload,metric,variant,iteration,value\nw,m,,1,1.5\nw,m,,2,1.6\nw,k,,1,1\n' > a.csv
chmod 644 a.csv

readers() {	# WHO DB WHAT: every reader works on DB as WHO ("" or a setpriv prefix)
	local who=$1 db=$2 what=$3 cmd
	for cmd in "list runs" "list kernels" "show 1" "export" "export --format json" "compare x y"; do
		# shellcheck disable=SC2086
		$who "$MMB" -q $cmd --db "$db" > out 2> err ||
			die "$what: '$cmd' failed: $(cat err)"
		[ -s out ] || die "$what: '$cmd' printed nothing"
	done
	rm -f "$TMP/m.db"*
	$who "$MMB" -q merge --db "$TMP/m.db" "$db" 2> err || die "$what: merge of it failed: $(cat err)"
}
nothing_beside() {	# DB WHAT
	[ ! -e "$1-wal" ] && [ ! -e "$1-shm" ] && [ ! -e "$1-journal" ] ||
		die "$2: a reader created $(ls "$1"-* 2>/dev/null | tr '\n' ' ')"
}

# item 8: a folder we cannot write (root writes any folder: its part is below)
if [ "$(id -u)" != 0 ]; then
	mkdir ro
	"$MMB" -q import --db ro/a.db --name x a.csv
	"$MMB" -q import --db ro/a.db --name y a.csv
	trap 'chmod 755 "$TMP/ro"; cleanup' EXIT
	chmod 555 ro
	readers "" ro/a.db "a folder we cannot write"
	nothing_beside ro/a.db "a folder we cannot write"
	chmod 755 ro
	echo "ok (as root it also tests a read-only mount and a second user)"
	exit 0
fi

command -v setpriv > /dev/null || skip "setpriv (util-linux) runs commands as another uid"
A="setpriv --reuid=23401 --regid=23401 --clear-groups env HOME=$TMP"
B="setpriv --reuid=23402 --regid=23402 --clear-groups env HOME=$TMP"
chmod 711 "$TMP"
chmod 1777 "$TMP"

# item 8 as another user: A's folder, which B cannot write
$A mkdir own
$A "$MMB" -q import --db own/a.db --name x a.csv
$A "$MMB" -q import --db own/a.db --name y a.csv
[ "$(command sqlite3 own/a.db 'PRAGMA journal_mode')" = wal ] || die "not a WAL database"
readers "$B" own/a.db "A's folder, read by B"
nothing_beside own/a.db "A's folder, read by B"

# item 8 on a read-only bind mount (root may write any folder, not a read-only mount)
mkdir rom
if mount --bind own rom 2> /dev/null && mount -o remount,ro,bind rom 2> /dev/null; then
	readers "" rom/a.db "a read-only mount"
	umount rom
	nothing_beside own/a.db "a read-only mount"
else
	umount rom 2> /dev/null || true
	echo "note: no read-only bind mount here (not permitted): that part skipped"
fi

# item 7: a sticky shared folder, A's database, B's reader
mkdir -m 1777 shared
$A "$MMB" -q import --db shared/a.db --name x a.csv
$A "$MMB" -q import --db shared/a.db --name y a.csv
readers "$B" shared/a.db "B in the shared folder"
nothing_beside shared/a.db "B in the shared folder"
$A "$MMB" -q import --db shared/a.db --name z a.csv 2> err || die "A's next import failed: $(cat err)"

# A has it open (its -wal and -shm beside it): B reads through them, creating nothing
rm -f held go
$A sh -c "command -v sqlite3 > /dev/null && exec sqlite3 shared/a.db \"UPDATE runs SET experiment = 'in-wal' WHERE id = 1\" \".shell touch held; while [ ! -e go ]; do sleep 0.1; done\"" &
holder=$!
for _ in $(seq 1 600); do [ -e held ] && break; sleep 0.1; done
[ -e held ] || die "the holder never opened the database"
[ -e shared/a.db-wal ] && [ -e shared/a.db-shm ] || die "the holder left no -wal/-shm"
$B "$MMB" list runs --db shared/a.db > out 2> err || die "B's list runs beside A's writer failed: $(cat err)"
grep -q in-wal out || die "B did not read the committed change in A's -wal: $(cat out)"
[ -z "$(find shared -user 23402)" ] || die "B created $(find shared -user 23402)"
touch go
wait "$holder" || die "the holder failed"

# A killed with it open: B reads the -wal A left, A writes on
rm -f held go
$A sh -c "exec sqlite3 shared/a.db \"UPDATE runs SET experiment = 'killed' WHERE id = 2\" \".shell touch held; while :; do sleep 1; done\"" &
holder=$!
for _ in $(seq 1 600); do [ -e held ] && break; sleep 0.1; done
kids=$(pgrep -P "$holder" || true)
kill -KILL "$holder"	# sqlite3 itself first: its loop's end would let it close cleanly
wait "$holder" 2> /dev/null || true
# shellcheck disable=SC2086
[ -z "$kids" ] || kill -KILL $kids 2> /dev/null || true
[ -s shared/a.db-wal ] || die "the killed writer left no -wal"
$B "$MMB" list runs --db shared/a.db > out 2> err || die "B's read of a killed writer's file failed: $(cat err)"
grep -q killed out || die "B missed the killed writer's commit: $(cat out)"
[ -z "$(find shared -user 23402)" ] || die "B created $(find shared -user 23402)"
$A "$MMB" -q import --db shared/a.db --name w a.csv 2> err || die "A's import after B failed: $(cat err)"

# a writer changing the file under an immutable read fails that read
$A "$MMB" -q rm --db shared/a.db --yes --label w > /dev/null 2>&1
for i in $(seq 1 20); do
	awk -v i="$i" 'BEGIN { print "workload,metric,variant,iteration,value"
		for (k = 1; k <= 2000; k++) printf "w%d,m,,%d,%d.5\n", i, k, k }' > "big$i.csv"
	$A "$MMB" -q import --db shared/a.db --name "b$i" "big$i.csv"
done
nothing_beside shared/a.db "before the torn read"
rm -f started imported
( rc=0; $B "$MMB" export --db shared/a.db 2> torn.err || rc=$?; echo $rc > torn.rc ) |
	{ head -c 100 > /dev/null; touch started
	  while [ ! -e imported ]; do sleep 0.1; done; cat > /dev/null; } &
reader=$!
for _ in $(seq 1 600); do [ -e started ] && break; sleep 0.1; done
$A "$MMB" -q import --db shared/a.db --name late a.csv 2> err || die "A's import beside B's read failed: $(cat err)"
touch imported
wait "$reader"
for _ in $(seq 1 600); do [ -s torn.rc ] && break; sleep 0.1; done
[ -s torn.rc ] || die "the torn read never ended"
[ "$(cat torn.rc)" != 0 ] || die "a read the writer changed under it exited 0"
grep -q "changed it while it was read" torn.err || die "the torn read does not say why: $(cat torn.err)"
[ -z "$(find shared -user 23402)" ] || die "B created $(find shared -user 23402)"
$B "$MMB" -q list runs --db shared/a.db > /dev/null || die "B's next read failed"
echo "ok"
