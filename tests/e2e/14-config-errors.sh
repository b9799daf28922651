#!/bin/bash
# Bad experiments: one clear error naming file:line:col, exit 2, and the
# data already in the database untouched.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
cat > "$TMP/good.yaml" <<EOC
experiment: good
iterations: 2
warmup: 0
workloads:
  - name: faulty
EOC
"$MMB" run "$TMP/good.yaml" -q > /dev/null
before=$(q "SELECT count(*) FROM samples")
[ "$before" = 2 ] || die "setup run failed"

check() {	# name, expected message part, yaml
	printf '%s\n' "$3" > "$TMP/$1.yaml"
	set +e
	"$MMB" run "$TMP/$1.yaml" -q > "$TMP/out" 2> "$TMP/err"
	rc=$?
	set -e
	[ "$rc" = 2 ] || die "$1: expected exit 2, got $rc: $(cat "$TMP/err")"
	grep -qF -- "$2" "$TMP/err" || die "$1: expected '$2' in: $(cat "$TMP/err")"
	[ "$(grep -c '^error:' "$TMP/err")" = 1 ] || die "$1: expected one error line: $(cat "$TMP/err")"
	echo "$1: $(cat "$TMP/err")"
}
check unknown-workload "$TMP/unknown-workload.yaml:4:11: unknown or unloadable workload 'nosuch'; available: " \
'experiment: x
iterations: 1
workloads:
  - name: nosuch'
check unknown-param "$TMP/unknown-param.yaml:6:7: workload 'faulty': unknown parameter 'scrpt'; valid parameters: script, state_dir" \
'experiment: x
iterations: 1
workloads:
  - name: faulty
    params:
      scrpt: ok'
check bad-range "$TMP/bad-range.yaml:6:20: workload 'pft': parameter 'clients': 0 is out of range [1, 128]" \
'experiment: x
iterations: 1
workloads:
  - name: pft
    params:
      clients: [1, 0]'
check bad-enum "workload 'pft': parameter 'mode': 'thread' is not a valid choice; valid: threads|processes" \
'experiment: x
workloads:
  - name: pft
    params:
      mode: thread'
check bad-key "$TMP/bad-key.yaml:2:1: unknown key" \
'experiment: x
iteratons: 3
workloads:
  - name: faulty'
check bad-yaml "$TMP/bad-yaml.yaml:4:1: invalid YAML" \
'experiment: x
workloads:
  - name: [faulty'
set +e
"$MMB" run "$TMP/missing.yaml" 2> "$TMP/err"
rc=$?
set -e
[ "$rc" = 2 ] && grep -q "missing.yaml" "$TMP/err" || die "missing file: $rc $(cat "$TMP/err")"
[ "$(q "SELECT count(*) FROM samples")" = "$before" ] || die "recorded data changed"
[ "$(q "SELECT count(*) FROM runs")" = 1 ] || die "a bad config created a run"
