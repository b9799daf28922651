#!/bin/bash
# A read-only database file, and a database in a read-only folder (SQLite
# must create FILE-wal/-shm beside it): `run` and `import` stop before doing
# anything with ONE error saying so, exit 1; the database is unchanged and
# intact, and reading it (list, compare) still works where SQLite can.
# As root the read-only-ness comes from mounts (root ignores file modes);
# otherwise from chmod.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
root=; [ "$(id -u)" = 0 ] && root=1
mounts=
trap 'for m in $mounts; do umount "$m" 2>/dev/null || true; done; cleanup' EXIT
cat > "$TMP/r.yaml" <<EOC
experiment: readonly
iterations: 2
warmup: 0
workloads:
  - name: faulty
    params:
      script: ok
      state_dir: $TMP
EOC
printf 'workload,metric,variant,iteration,value\nw,m,,1,1.5\n' > "$TMP/i.csv"
expect_refused() {	# what, expected message, command...
	local what=$1 msg=$2
	shift 2
	set +e
	"$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	set -e
	cat "$TMP/err"
	[ "$rc" = 1 ] || die "$what: expected exit 1, got $rc"
	[ "$(grep -c '^error:' "$TMP/err")" = 1 ] || die "$what: expected one error line"
	grep -q "$msg" "$TMP/err" || die "$what: the error does not say '$msg'"
}

# 1. read-only file (folder writable)
D=$TMP/file
mkdir -p "$D"
"$MMB" run "$TMP/r.yaml" --db "$D/db" -q > /dev/null || die "setting up the database failed"
sum=$(sha256sum < "$D/db")
if [ -n "$root" ]; then
	mount --bind "$D/db" "$D/db" && mounts="$D/db $mounts" &&
		mount -o remount,bind,ro "$D/db" || skip "cannot make a read-only bind mount"
else
	chmod 444 "$D/db"
fi
expect_refused "run, read-only file" "database $D/db is read-only" "$MMB" run "$TMP/r.yaml" --db "$D/db" -q
expect_refused "import, read-only file" "database $D/db is read-only" \
	"$MMB" import --db "$D/db" --name X "$TMP/i.csv"
"$MMB" list runs --db "$D/db" | grep -q complete || die "a read-only database cannot be listed"
[ "$(sha256sum < "$D/db")" = "$sum" ] || die "the read-only database changed"
[ "$(sqlite3 "$D/db" "PRAGMA integrity_check")" = ok ] || die "integrity_check (file)"
[ "$(sqlite3 "$D/db" "SELECT count(*) FROM runs")" = 1 ] || die "a run was recorded"

# 2. read-only folder
D=$TMP/dir
mkdir -p "$D"
if [ -n "$root" ]; then
	mount -t tmpfs -o size=4M mmbench-e2e-ro "$D" || skip "cannot mount a tmpfs"
	mounts="$D $mounts"
fi
"$MMB" run "$TMP/r.yaml" --db "$D/db" -q > /dev/null || die "setting up the database failed"
sum=$(sha256sum < "$D/db")
if [ -n "$root" ]; then
	mount -o remount,ro "$D" || skip "cannot remount read-only"
else
	chmod 555 "$D"
fi
expect_refused "run, read-only folder" "folder $D is not writable" "$MMB" run "$TMP/r.yaml" --db "$D/db" -q
expect_refused "import, read-only folder" "folder $D is not writable" \
	"$MMB" import --db "$D/db" --name X "$TMP/i.csv"
[ ! -e "$D/db-wal" ] || die "a WAL file appeared in the read-only folder"
[ "$(sha256sum < "$D/db")" = "$sum" ] || die "the database in the read-only folder changed"
[ "$(sqlite3 "file:$D/db?immutable=1" "PRAGMA integrity_check")" = ok ] || die "integrity_check (folder)"
[ -n "$root" ] || chmod 755 "$D"
echo ok
