#!/bin/bash
# A plugin writing garbage through the host table: NaN and +/-inf samples,
# a metric index it never declared, a knob outside /sys.  Each fails its
# own iteration with the reason; nothing non-finite reaches the database.
# Negative and huge-but-finite values are legal samples (deltas, ratios)
# and are stored exactly.  (11-faults.sh covers crash/hang/abort/exit.)
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
cat > "$TMP/g.yaml" <<EOC
experiment: garbage
iterations: 8
warmup: 0
timeout: 5s
workloads:
  - name: faulty
    params:
      script: ok,nan,inf,neg,badmetric,knob,huge,ok
      state_dir: $TMP
EOC
set +e
"$MMB" run "$TMP/g.yaml" -q > "$TMP/out" 2> "$TMP/err"
rc=$?
set -e
cat "$TMP/err"
[ "$rc" = 1 ] || die "expected exit 1 when iterations fail, got $rc"
[ "$(q "SELECT status FROM runs")" = complete ] || die "run not complete"
st() { q "SELECT status || '|' || coalesce(reason, '') FROM iterations WHERE iteration = $1"; }
st 2 | grep -q "^failed|plugin reported a non-finite value (nan)" || die "NaN not refused: $(st 2)"
st 3 | grep -q "^failed|plugin reported a non-finite value (inf)" || die "inf not refused: $(st 3)"
st 5 | grep -q "^failed|plugin reported metric index 99, it declares 1 metrics" || die "bad index: $(st 5)"
st 6 | grep -q "^failed|write_knob outside /sys refused" || die "knob outside /sys: $(st 6)"
[ ! -e /etc/mmbench-should-not-exist ] || die "the plugin wrote outside /sys"
for i in 1 4 7 8; do [ "$(st $i)" = "ok|" ] || die "iteration $i: $(st $i)"; done
# failed iterations keep no samples; legal ones are stored exactly
[ "$(q "SELECT group_concat(iteration, ' ') FROM (SELECT iteration FROM samples ORDER BY iteration)")" = "1 4 7 8" ] ||
	die "samples of failed iterations kept: $(q "SELECT iteration, value FROM samples")"
[ "$(q "SELECT value FROM samples WHERE iteration = 4")" = "-4.5" ] || die "negative value not kept"
[ "$(q "SELECT value = 1.5e308 FROM samples WHERE iteration = 7")" = 1 ] || die "huge value not kept"
[ "$(q "SELECT count(*) FROM samples WHERE value IS NULL OR value != value OR abs(value) > 1.7976931348623157e308")" = 0 ] ||
	die "non-finite value in the database"
[ "$(sqlite3 "$MMBENCH_DB" "PRAGMA integrity_check")" = ok ] || die "integrity_check failed"
# every refusal was also said on stderr, once per iteration
[ "$(grep -c "iteration [2356] failed" "$TMP/err")" = 4 ] || die "warnings missing on stderr"
echo ok
