#!/bin/bash
# Valgrind memcheck on a `run` (skeleton plugin, forked iterations
# included), an `import` and a `compare` in every format: no invalid
# read/write, no use of uninitialised memory, no definite leak.
. "$(dirname "$0")/../e2e-lib.sh"
command -v valgrind >/dev/null || skip "valgrind is not installed"
# make check-asan: valgrind cannot run a sanitizer build (ASan checks it instead)
! ldd "$MMB" 2>/dev/null | grep -q 'lib[at]san' || skip "$MMB is a sanitizer build"
[ -e "$MMBENCH_BUILD/workloads/skeleton.so" ] || skip "no skeleton plugin built"
# a private copy: a rebuild of the shared tree during this slow test must
# not swap the binary under it
cp "$MMB" "$TMP/mmbench" && MMB=$TMP/mmbench
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/workloads
VG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite
	--show-leak-kinds=definite --track-origins=yes --log-file=$TMP/vg.%p.log"
vg() {	# name, command...
	local name=$1 rc
	shift
	set +e
	$VG "$@" > "$TMP/$name.out" 2> "$TMP/$name.err"
	rc=$?
	set -e
	if [ "$rc" = 99 ] || grep -qE '(Invalid|uninitialised|definitely lost|Mismatched|overlap)' "$TMP"/vg.*.log; then
		cat "$TMP"/vg.*.log
		die "valgrind: memory errors in '$name'"
	fi
	[ "$rc" = 0 ] || { cat "$TMP/$name.err"; die "'$name' failed under valgrind (exit $rc)"; }
	rm -f "$TMP"/vg.*.log
}
cat > "$TMP/s.yaml" <<EOC
experiment: valgrind
iterations: 2
warmup: 1
timeout: 120s
workloads:
  - name: skeleton
    params:
      size: 1M
      access: [write, read]
EOC
vg run "$MMB" run "$TMP/s.yaml" -q
[ "$(q "SELECT status FROM runs")" = complete ] || die "run not complete"
[ "$(q "SELECT count(*) FROM iterations WHERE status = 'ok' AND NOT warmup")" = 4 ] || die "iterations missing"
vg list "$MMB" list runs
vg show "$MMB" show 1
F=$(dirname "$0")/../fixtures/compare
vg import-a "$MMB" import --name base "$F/aim9-base.csv"
vg import-b "$MMB" import --name mj "$F/aim9-new.matrix.json"
# the matrix.json rows have no variant: compare against the same CSV rows
# (nothing in common is exit 2 since compare learned to say so)
vg import-c "$MMB" import --name new "$F/aim9-base.csv"
for fmt in text mmtests lkp markdown csv json; do
	vg "compare-$fmt" "$MMB" compare --format "$fmt" base new
	[ -s "$TMP/compare-$fmt.out" ] || die "compare --format $fmt printed nothing"
done
echo "memcheck clean: run, list, show, import (CSV, matrix.json), compare x6"
