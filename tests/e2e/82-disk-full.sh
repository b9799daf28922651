#!/bin/bash
# Disk full under the database (a 1 MiB tmpfs): at the start of a run
# (cannot even record the run's environment) and in the middle (an
# iteration cannot commit).  Each time: ONE error naming the database and
# why, exit 1, PRAGMA integrity_check ok, every iteration committed before
# the error kept with its samples, and the database usable once space is
# back.
. "$(dirname "$0")/../e2e-lib.sh"
need_root "mounts a small tmpfs"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
FULL=$TMP/full
mkdir -p "$FULL"
mount -t tmpfs -o size=1M mmbench-e2e-full "$FULL" || skip "cannot mount a tmpfs here"
trap 'umount "$FULL" 2>/dev/null || true; cleanup' EXIT
export MMBENCH_DB=$FULL/mmbench.db
cat > "$TMP/r.yaml" <<EOC
experiment: diskfull
iterations: 300
warmup: 0
workloads:
  - name: faulty
    params:
      script: ok
      state_dir: $TMP
EOC
avail_kb() { df -Pk "$FULL" | awk 'NR == 2 { print $4 }'; }
# leave about $1 KiB free
fill_to() {
	rm -f "$FULL/filler"
	dd if=/dev/zero of="$FULL/filler" bs=4k count=$(( ($(avail_kb) - $1) / 4 )) 2>/dev/null || true
}
"$MMB" run "$TMP/r.yaml" -q --iterations 2 > /dev/null || die "the first run failed"
first=$(q "SELECT count(*) FROM samples")
[ "$first" = 2 ] || die "expected 2 samples from the first run, got $first"

for free in 48 400; do
	fill_to "$free"
	set +e
	"$MMB" run "$TMP/r.yaml" -q > "$TMP/out" 2> "$TMP/err"
	rc=$?
	set -e
	cat "$TMP/err"
	[ "$rc" = 1 ] || die "free ${free}K: expected exit 1, got $rc"
	[ "$(grep -c '^error:' "$TMP/err")" = 1 ] || die "free ${free}K: expected one error line"
	grep -q "^error: $FULL/mmbench.db: .*database or disk is full" "$TMP/err" ||
		die "free ${free}K: the error does not name the database and the cause"
	rm -f "$FULL/filler"
	[ "$(sqlite3 "$MMBENCH_DB" "PRAGMA integrity_check")" = ok ] || die "free ${free}K: integrity_check"
	[ "$(q "SELECT count(*) FROM samples WHERE run_id = 1")" = 2 ] || die "free ${free}K: first run's samples lost"
	[ "$(q "SELECT count(*) FROM iterations i WHERE status = 'ok' AND NOT EXISTS
		(SELECT 1 FROM samples s WHERE s.iteration_id = i.id)")" = 0 ] ||
		die "free ${free}K: an iteration was committed without its samples"
	last=$(q "SELECT max(id) FROM runs")
	st=$(q "SELECT status FROM runs WHERE id = $last")
	[ "$st" = failed ] || [ "$st" = interrupted ] || die "free ${free}K: the run shows as $st"
	echo "free ${free}K: run $last $st after $(q "SELECT count(*) FROM iterations WHERE run_id = $last") iterations"
done
[ "$(q "SELECT count(*) FROM iterations WHERE run_id = (SELECT max(id) FROM runs)")" -gt 0 ] ||
	die "the mid-run case never committed an iteration (filled too early?)"
# space is back: the same database takes a new run
"$MMB" run "$TMP/r.yaml" -q --iterations 2 > /dev/null || die "the database is wedged after disk full"
[ "$(q "SELECT status FROM runs ORDER BY id DESC LIMIT 1")" = complete ] || die "the new run is not complete"
echo ok
