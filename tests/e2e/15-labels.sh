#!/bin/bash
# Kernel labels with quotes, spaces, shell characters and non-UTF-8 bytes
# are stored and printed back exactly; no shell sees them (control
# characters are refused: 127-names-control.sh).
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
cat > "$TMP/c.yaml" <<EOC
experiment: labels
iterations: 1
warmup: 0
workloads:
  - name: faulty
EOC
labels=(
	"6.12.0-rc1 + it's \"fix\""
	'$(touch '"$TMP"'/pwned); `touch '"$TMP"'/pwned2`'
	"a;b|c&d>e<f"
	$'latin1 \xb1 byte'
	"'; DROP TABLE samples; --"
)
for l in "${labels[@]}"; do
	"$MMB" run "$TMP/c.yaml" --name "$l" -q > /dev/null
done
[ ! -e "$TMP/pwned" ] && [ ! -e "$TMP/pwned2" ] || die "a label reached a shell"
[ "$(q "SELECT count(*) FROM kernels")" = "${#labels[@]}" ] || die "label count"
i=0
for l in "${labels[@]}"; do
	got=$(sqlite3 "$MMBENCH_DB" "SELECT hex(label) FROM kernels WHERE id = $((i + 1))")
	want=$(printf '%s' "$l" | od -An -tx1 | tr -d ' \n' | tr a-f A-F)
	[ "$got" = "$want" ] || die "label $i changed: $got != $want"
	i=$((i + 1))
done
"$MMB" list kernels > "$TMP/list"
grep -qF "a;b|c&d>e<f" "$TMP/list" || die "label not printed back"
grep -qF "'; DROP TABLE samples; --" "$TMP/list" || die "label not printed back"
[ "$(q "SELECT count(*) FROM samples")" = "${#labels[@]}" ] || die "samples table damaged"
