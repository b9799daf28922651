#!/bin/bash
# The commands that read results (each opens it through command_open_db(),
# as its NEED_DB_EXISTING flag says): a --db that does not exist is the
# user's mistake (exit 2, the file named); one that is not a database cannot
# be read (exit 1).  Nothing is created either way.
. "$(dirname "$0")/../e2e-lib.sh"

printf 'not a database, just text\n%.0s' $(seq 1 200) > "$TMP/garbage.db"
check() {	# check EXPECTED-RC DB ARGS...
	local want=$1 db=$2
	shift 2
	set +e
	"$MMB" "$@" --db "$db" > "$TMP/out" 2> "$TMP/err"; rc=$?
	set -e
	[ $rc = "$want" ] || { cat "$TMP/err"; die "$* --db $db: exit $rc, expected $want"; }
	[ -s "$TMP/err" ] || die "$* --db $db: exit $rc without a message"
}
for db in "$TMP/none.db" "$TMP/garbage.db"; do
	want=2; [ "$db" = "$TMP/none.db" ] || want=1
	check $want "$db" compare a b
	check $want "$db" report --out "$TMP/rep" a b
	check $want "$db" plot --out "$TMP/plots" a b
	check $want "$db" export
	check $want "$db" rm --yes 1
	check $want "$db" run --resume 1
	check $want "$db" list runs
	check $want "$db" show last
	if [ $want = 2 ]; then
		grep -qF "database $db does not exist" "$TMP/err" ||
			{ cat "$TMP/err"; die "the message should name the missing file"; }
	fi
done
[ ! -e "$TMP/none.db" ] || die "a command that reads results created the database"
[ ! -e "$TMP/rep" ] || die "report made its folder without a database"
echo ok
