#!/bin/bash
# e2e: the run summary (end of `run`, and `show`) when the machine's state
# left no clean value: a row whose iterations were all disturbed still
# shows its numbers (never "nan"), marked as disturbed values; a sentence
# says compare leaves them out and a line says why (the iterations' own
# reason); the n column stays aligned however wide "n (k disturbed)" gets.
# A row of one clean value has no CoV either.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=${MMBENCH_BUILD:-build}/tests/plugins
cat >"$TMP/f.yaml" <<EOC
experiment: summary-disturbed
iterations: 3
warmup: 0
workloads:
  - name: faulty
    params:
      script: ok,ok,ok
      state_dir: $TMP/s
EOC
mkdir -p "$TMP/s"
run "$TMP/f.yaml"
[ $rc = 0 ] || die "run: $(cat "$TMP/err")"
id=$(q "select max(id) from runs")
q "UPDATE iterations SET disturbed = 'foreign CPU 80% of 2 CPUs (limit 10%)' WHERE run_id = $id"
"$MMB" show "$id" >"$TMP/show" 2>&1 || die "show: $(cat "$TMP/show")"
grep -q nan "$TMP/show" && die "nan in the summary: $(cat "$TMP/show")"
row=$(grep -E '^faulty ' "$TMP/show" | tail -1)
# still the run's numbers, marked as disturbed (issue 45 item 9), not "-"
echo "$row" | grep -Eq '^faulty +value +units +0 \(3 disturbed\)  Hmean +[0-9.]+ +[0-9.]+%  \(higher is better; disturbed values\)$' ||
	die "all-disturbed row: '$row'"
grep -q "^1 row measured only in disturbed iterations: its numbers are of those values" "$TMP/show" ||
	die "no note: $(cat "$TMP/show")"
grep -qx "disturbed: foreign CPU 80% of 2 CPUs (limit 10%) (\`mmbench show $id\` lists each iteration; \`run --wait-quiet\` waits for a quiet machine)" "$TMP/show" ||
	die "no one-line reason: $(cat "$TMP/show")"
# header and row: the n column ends at the same place
hdr=$(grep -E '^workload ' "$TMP/show" | tail -1)
h=${hdr%%  mean*}; r=${row%%  Hmean*}
[ ${#h} = ${#r} ] || die "n column misaligned: header '$h' (${#h}), row '$r' (${#r})"

# two iterations back to clean: a mean and a CoV; one: a mean, no CoV
q "UPDATE iterations SET disturbed = NULL WHERE run_id = $id AND iteration <= 2"
"$MMB" show "$id" >"$TMP/show2" 2>&1 || die "show: $(cat "$TMP/show2")"
grep -Eq '^faulty +value +units +2 \(1 disturbed\)  Hmean +[0-9.]+ +[0-9.]+%  \(higher' "$TMP/show2" ||
	die "two clean values: $(cat "$TMP/show2")"
grep -q "measured only in disturbed" "$TMP/show2" && die "note with clean values: $(cat "$TMP/show2")"
q "UPDATE iterations SET disturbed = 'x' WHERE run_id = $id AND iteration = 2"
"$MMB" show "$id" >"$TMP/show3" 2>&1 || die "show: $(cat "$TMP/show3")"
grep -Eq '^faulty +value +units +1 \(2 disturbed\)  Hmean +[0-9.]+ +-  \(higher' "$TMP/show3" ||
	die "one clean value: $(cat "$TMP/show3")"
echo ok
