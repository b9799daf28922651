#!/bin/bash
# Static requirements in a descriptor are enforced before anything runs and
# the refusal names what is missing: min_kernel newer than this kernel, and
# MMB_REQ_ROOT when unprivileged (as root the test drops to nobody).  A
# root-only environment setting asked for by an unprivileged user is one
# clear error naming the setting.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
cat > "$TMP/r.yaml" <<EOC
experiment: requires
iterations: 2
warmup: 0
workloads:
  - name: req_kernel
  - name: req_root
EOC
unpriv=()
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null || skip "root, and no setpriv to drop privileges"
	id nobody >/dev/null 2>&1 || skip "root, and no user nobody"
	chmod 755 "$TMP"
	mkdir -p "$TMP/nb"
	chown nobody "$TMP/nb"
	cp "$MMB" "$TMP/mmbench" && chmod 755 "$TMP/mmbench"
	unpriv=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups
		env HOME="$TMP/nb" MMBENCH_STATE="$TMP/nb/state" MMBENCH_LOCK="$TMP/nb/machine.lock"
		MMBENCH_DB="$TMP/nb/db")
	MMB=$TMP/mmbench
	export MMBENCH_DB=$TMP/nb/db
	# nobody must be able to read the plugins
	"${unpriv[@]}" test -r "$MMBENCH_PLUGIN_PATH/req_root.so" || skip "nobody cannot read $MMBENCH_PLUGIN_PATH"
else
	mkdir -p "$TMP/nb"
fi
"${unpriv[@]}" "$MMB" run "$TMP/r.yaml" > "$TMP/out" 2> "$TMP/err" || { cat "$TMP/err"; die "run failed"; }
cat "$TMP/err"
r() { q "SELECT group_concat(DISTINCT status || '|' || reason) FROM iterations WHERE workload = '$1'"; }
r req_kernel | grep -q "^skipped|needs kernel 99.0.0 or newer (this is " || die "min_kernel not enforced: $(r req_kernel)"
r req_root | grep -q "^skipped|needs root" || die "MMB_REQ_ROOT not enforced: $(r req_root)"
grep -q "req_root.*skipped: needs root" "$TMP/err" || die "the refusal is not shown"
[ "$(q "SELECT count(*) FROM samples")" = 0 ] || die "a refused workload ran"

# a setting that needs root
THP=/sys/kernel/mm/transparent_hugepage
if [ -e $THP/enabled ]; then
	want=never; grep -q '\[never\]' $THP/enabled && want=always
	cat > "$TMP/t.yaml" <<EOC
experiment: thp-unprivileged
iterations: 1
warmup: 0
environment:
  thp: $want
workloads:
  - name: req_kernel
EOC
	before=$(cat $THP/enabled)
	set +e
	"${unpriv[@]}" "$MMB" run "$TMP/t.yaml" -q > "$TMP/out" 2> "$TMP/err"
	rc=$?
	set -e
	cat "$TMP/err"
	[ "$rc" = 1 ] || die "an unprivileged THP change should exit 1, got $rc"
	grep -q "environment thp.*needs root" "$TMP/err" || die "the error does not say the setting needs root"
	[ "$(grep -c '^error:' "$TMP/err")" = 1 ] || die "expected one error line"
	[ "$(cat $THP/enabled)" = "$before" ] || die "THP changed anyway"
fi
echo ok
