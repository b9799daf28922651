#!/bin/bash
# A damaged database (one page of a table overwritten) is one error naming
# the file and exit 1 for every reader: never an empty table with exit 0,
# never "no run 1".  Each table a reader reads is damaged in turn.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
cat > "$TMP/c.yaml" <<EOC
experiment: corrupt
iterations: 2
warmup: 0
# a busy shared machine must not leave the samples out of compare
interference:
  foreign_cpu: off
  steal: off
  freq_drop: off
  throttle: off
  knobs: off
workloads:
  - name: faulty
    params:
      script: ok,segv,ok
      state_dir: $TMP
EOC
run "$TMP/c.yaml" --name a
run "$TMP/c.yaml" --name b
[ "$(q "SELECT count(*) FROM runs WHERE status = 'complete'")" = 2 ] || die "two runs expected"
# everything in the main file, so the damage is what SQLite reads
q "PRAGMA wal_checkpoint(TRUNCATE)" > /dev/null
cp "$MMBENCH_DB" "$TMP/good.db"
psize=$(q "PRAGMA page_size")

damage() {	# table or index...: overwrite each one's root page with text
	cp "$TMP/good.db" "$MMBENCH_DB"
	rm -f "$MMBENCH_DB-wal" "$MMBENCH_DB-shm"
	local root roots=
	for t in "$@"; do
		root=$(sqlite3 "$TMP/good.db" "SELECT rootpage FROM sqlite_master WHERE name = '$t'")
		[ -n "$root" ] && [ "$root" -gt 1 ] || die "no root page for $t"
		roots="$roots $root"
	done
	for root in $roots; do
		yes 'not a b-tree page' | head -c "$psize" |
			dd of="$MMBENCH_DB" bs="$psize" seek=$((root - 1)) count=1 conv=notrunc 2>/dev/null
	done
}

fails() {	# table, command...: exit 1, nothing on stdout, one error naming the file
	local table=$1 rc
	shift
	set +e
	"$MMB" "$@" > "$TMP/o" 2> "$TMP/e"
	rc=$?
	set -e
	[ "$rc" = 1 ] || { cat "$TMP/o" "$TMP/e"; die "$table damaged: '$*' exited $rc, want 1"; }
	[ ! -s "$TMP/o" ] || { cat "$TMP/o"; die "$table damaged: '$*' printed a partial result"; }
	[ "$(wc -l < "$TMP/e")" = 1 ] || { cat "$TMP/e"; die "$table damaged: '$*': not one error line"; }
	grep -qF "error: $MMBENCH_DB: " "$TMP/e" || { cat "$TMP/e"; die "$table damaged: '$*': error does not name the file"; }
	grep -q "malformed" "$TMP/e" || { cat "$TMP/e"; die "$table damaged: '$*': error does not say why"; }
}

# the good copy reads fine (so the failures below are the damage)
"$MMB" list runs > /dev/null && "$MMB" list kernels > /dev/null && "$MMB" show 1 > /dev/null &&
	"$MMB" compare a b > /dev/null || die "the undamaged database does not read"

damage runs
for c in "list runs" "list kernels" "show 1" "show last" "compare a b"; do
	# shellcheck disable=SC2086
	fails runs $c
done
damage iterations
fails iterations list runs
fails iterations show 1
damage run_env
fails run_env show 1
damage monitors
fails monitors show 1
# list counts through the index, compare reads the table: damage both
damage sample_values sample_values_by_run
for c in "list runs" "list kernels" "show 1" "compare a b"; do
	# shellcheck disable=SC2086
	fails sample_values $c
done
damage kernels
for c in "list runs" "list kernels" "show 1" "compare a b"; do
	# shellcheck disable=SC2086
	fails kernels $c
done
echo "ok"
