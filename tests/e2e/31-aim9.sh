#!/bin/bash
# aim9 plugin: brk_test, page_test and fork_test through `mmbench run` store one
# positive ops/s sample per iteration under the metric of the chosen test
# (lkp layout: aim9.brk_test.ops_per_sec), higher is better; page_test
# (faults on every grow) is slower per op than brk_test; a test time below
# the minimum and an unknown test are config errors naming file:line:col.
. "$(dirname "$0")/../e2e-lib.sh"
command -v sqlite3 >/dev/null || skip "sqlite3 CLI not installed"
[ -f "$MMBENCH_BUILD/workloads/aim9.so" ] || die "aim9.so not built"


cat > "$TMP/a.yaml" <<EOC
experiment: aim9-e2e
iterations: 2
warmup: 0
workloads:
  - name: aim9
    params:
      test: [brk_test, page_test, fork_test]
      testtime: 1s
EOC
run "$TMP/a.yaml"
cat "$TMP/err"
[ $rc = 0 ] || { cat "$TMP/out"; die "mmbench run exited $rc"; }
[ "$(q "SELECT status FROM runs")" = complete ] || die "run not complete"
[ "$(q "SELECT count(*) FROM iterations WHERE status != 'ok'")" = 0 ] || die "failed iterations: $(q "SELECT reason FROM iterations WHERE status != 'ok'")"
for t in brk_test page_test fork_test; do
	row=$(q "SELECT count(*), min(value), group_concat(DISTINCT unit), group_concat(DISTINCT better),
		 group_concat(DISTINCT metric) FROM samples WHERE workload = 'aim9' AND variant = 'test=$t'")
	[ "$row" = "2|$(q "SELECT min(value) FROM samples WHERE variant = 'test=$t'")|ops/s|1|$t.ops_per_sec" ] ||
		die "test=$t: expected 2 samples of $t.ops_per_sec in ops/s, higher better; got '$row'"
	awk -v x="$(q "SELECT min(value) FROM samples WHERE variant = 'test=$t'")" 'BEGIN { exit !(x > 0) }' ||
		die "test=$t: non-positive ops/s"
done
# the direction: a page_test op (grow + 32 stores + fault) costs more than a brk_test op
brk=$(q "SELECT avg(value) FROM samples WHERE metric = 'brk_test.ops_per_sec'")
page=$(q "SELECT avg(value) FROM samples WHERE metric = 'page_test.ops_per_sec'")
awk -v b="$brk" -v p="$page" 'BEGIN { exit !(b > p) }' || die "brk_test $brk ops/s not above page_test $page"
# a fork + exit + wait costs far more than one brk() call
fork=$(q "SELECT avg(value) FROM samples WHERE metric = 'fork_test.ops_per_sec'")
awk -v b="$brk" -v f="$fork" 'BEGIN { exit !(b > f) }' || die "brk_test $brk ops/s not above fork_test $fork"

cat > "$TMP/bad.yaml" <<EOC
experiment: bad
workloads:
  - name: aim9
    params:
      testtime: 10ms
EOC
run "$TMP/bad.yaml"
[ $rc = 2 ] || die "testtime 10ms: expected exit 2, got $rc"
grep -q "bad.yaml:5:17:.*testtime.*out of range" "$TMP/err" || die "testtime message: $(cat "$TMP/err")"

cat > "$TMP/bad2.yaml" <<EOC
experiment: bad
workloads:
  - name: aim9
    params:
      test: [brk_test, exec_test]
EOC
run "$TMP/bad2.yaml"
[ $rc = 2 ] || die "exec_test: expected exit 2, got $rc"
grep -q "bad2.yaml:5:24:.*brk_test.*page_test" "$TMP/err" || die "unknown test message: $(cat "$TMP/err")"
echo "ok: aim9 e2e (brk_test $brk ops/s, page_test $page ops/s)"
