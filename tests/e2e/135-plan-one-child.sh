#!/bin/bash
# Issue 27 item 18: planning forked a child per variant for check_params()
# and again for supported() (1000 variants: 27 s).  Each hook now runs in
# one child per workload, on every variant; the answers are the same (a
# refusal still names its variant).  The timing is bench's business: this
# counts children.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
export MMB_TEST_HOOK_PIDS=$TMP/pids
# the second workload stops the run after the first is planned, before anything runs
cat > "$TMP/c.yaml" <<EOC
experiment: many
iterations: 1
warmup: 0
workloads:
  - name: crash_hooks
    params: { n: range:1..300 }
  - name: faulty
    params: { no_such_param: 1 }
EOC
rc=0
"$MMB" run "$TMP/c.yaml" -q > /dev/null 2> "$TMP/err" || rc=$?
[ $rc = 2 ] || die "exit $rc: $(cat "$TMP/err")"
grep -qF "unknown parameter 'no_such_param'" "$TMP/err" || die "$(cat "$TMP/err")"
for hook in check_params supported; do
	calls=$(grep -c "^$hook " "$TMP/pids" || true)
	children=$(grep "^$hook " "$TMP/pids" | sort -u | wc -l)
	[ "$calls" = 300 ] || die "$hook called $calls times for 300 variants"
	[ "$children" = 1 ] || die "$hook ran in $children children for 300 variants (one per workload)"
done
echo ok
