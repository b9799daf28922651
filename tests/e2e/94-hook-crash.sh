#!/bin/bash
# A plugin that segfaults in supported() or check_params() (plan-time
# hooks, called before anything runs): the harness reports
# "plugin crash_hooks crashed in HOOK: SIGSEGV" as its one error, exits 1,
# and has changed nothing -- no run recorded, no knob touched, no journal.
# (It died with the plugin: exit 139, no message.)  A hook that hangs is
# killed at the hook timeout and named the same way.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
THP=/sys/kernel/mm/transparent_hugepage
cur() { sed 's/.*\[\(.*\)\].*/\1/' "$1"; }
env_section=
if [ "$(id -u)" = 0 ] && [ -w $THP/defrag ]; then
	before=$(cur $THP/defrag)
	want=never; [ "$before" = never ] && want=defer
	env_section="environment: { thp_defrag: $want }"
fi
for hook in supported check_params; do
	cat > "$TMP/c.yaml" <<EOC
experiment: crash-$hook
iterations: 1
warmup: 0
$env_section
workloads:
  - name: crash_hooks
    params:
      crash: $hook
EOC
	set +e
	"$MMB" run "$TMP/c.yaml" -q > "$TMP/out" 2> "$TMP/err"
	rc=$?
	set -e
	cat "$TMP/err"
	[ "$rc" = 1 ] || die "$hook: expected exit 1, got $rc"
	[ "$(grep -c '^error:' "$TMP/err")" = 1 ] || die "$hook: expected one error line"
	grep -qx "error: plugin crash_hooks crashed in $hook: SIGSEGV" "$TMP/err" ||
		die "$hook: the error does not say which plugin crashed where"
	if [ -e "$MMBENCH_DB" ]; then
		[ "$(q "SELECT count(*) FROM runs")" = 0 ] || die "$hook: a run was recorded"
	fi
	[ ! -s "$MMBENCH_STATE/journal" ] || die "$hook: something was journaled"
	[ -z "$env_section" ] || [ "$(cur $THP/defrag)" = "$before" ] || die "$hook: defrag changed"
done
# A hook that hangs is killed at the hook timeout (10 s; 1 s here) and named:
# it used to hang the planning for ever.
for hook in supported check_params; do
	sed -i "s/crash: .*/crash: hang_$hook/" "$TMP/c.yaml"
	set +e
	MMBENCH_HOOK_TIMEOUT_MS=1000 "$MMB" run "$TMP/c.yaml" -q > "$TMP/out" 2> "$TMP/err"
	rc=$?
	set -e
	cat "$TMP/err"
	[ "$rc" = 1 ] || die "hang in $hook: expected exit 1, got $rc"
	grep -qx "error: plugin crash_hooks did not return from $hook within 1000 ms (hung?): killed it" "$TMP/err" ||
		die "hang in $hook: the error does not name the hook"
	[ "$(grep -c '^error:' "$TMP/err")" = 1 ] || die "hang in $hook: expected one error line"
	[ ! -s "$MMBENCH_STATE/journal" ] || die "hang in $hook: something was journaled"
	! pgrep -f "$TMP/c.yaml" >/dev/null || die "hang in $hook: the hook's child survived"
done
# the same plugin, not asked to crash, runs
sed -i 's/crash: .*/crash: none/' "$TMP/c.yaml"
"$MMB" run "$TMP/c.yaml" -q > /dev/null || die "the plugin does not run when not crashing"
echo ok
