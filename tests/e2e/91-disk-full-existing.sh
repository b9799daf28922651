#!/bin/bash
# Disk full on a database that already holds runs, at every amount of free
# space from 0 to ~0.5 MiB in steps of 8 KiB (where the space runs out
# moves from opening the database, through recording the run and its
# environment, to the iterations): each time ONE error, exit 1, and the
# run, if it was recorded, is marked failed -- never left `running`.
# 82-disk-full.sh checks what is kept; this one sweeps where it breaks.
. "$(dirname "$0")/../e2e-lib.sh"
need_root "mounts a small tmpfs"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
FULL=$TMP/full
mkdir -p "$FULL"
mount -t tmpfs -o size=1M mmbench-e2e-full2 "$FULL" || skip "cannot mount a tmpfs here"
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
recorded=0
for free in $(seq 0 8 480); do
	rm -f "$FULL"/*
	"$MMB" run "$TMP/r.yaml" -q --iterations 2 > /dev/null || die "the first run failed"
	dd if=/dev/zero of="$FULL/filler" bs=4k count=$(( ($(avail_kb) - free) / 4 )) 2>/dev/null || true
	set +e
	"$MMB" run "$TMP/r.yaml" -q > "$TMP/out" 2> "$TMP/err"
	rc=$?
	set -e
	rm -f "$FULL/filler"
	[ "$rc" = 1 ] || die "free ${free}K: expected exit 1, got $rc"
	[ "$(grep -c '^error:' "$TMP/err")" = 1 ] || { cat "$TMP/err"; die "free ${free}K: expected one error line"; }
	[ "$(sqlite3 "$MMBENCH_DB" "PRAGMA integrity_check")" = ok ] || die "free ${free}K: integrity_check"
	[ "$(q "SELECT status FROM runs WHERE id = 1")" = complete ] || die "free ${free}K: the first run changed"
	st=$(q "SELECT status FROM runs WHERE id = 2")
	case $st in
	"") ;;	# the database could not even take the run's row
	failed) recorded=$((recorded + 1)) ;;
	*) cat "$TMP/err"; die "free ${free}K: the run is left '$st'" ;;
	esac
done
[ "$recorded" -gt 10 ] || die "only $recorded cases got as far as recording the run"
echo "ok ($recorded of $(seq 0 8 480 | wc -l) cases recorded a failed run)"
