#!/bin/bash
# docs/workloads.md documents every workload plugin the build makes (the
# skeleton template is docs/writing-workloads.md's): a row in the overview
# table, a "## <name>" section, and in that section every parameter and
# metric the plugin declares, as `name`.
. "$(dirname "$0")/../e2e-lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
doc=$top/docs/workloads.md
[ -x "$MMB" ] || die "$MMB not built"
MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/workloads "$MMB" list workloads -v >"$TMP/list" ||
	die "list workloads failed"
# section of one workload: from its heading to the next "## "
section() { awk -v h="## $1" '$0 == h { on = 1; next } on && /^## / { exit } on' "$doc"; }
bad=0 n=0
for w in $(awk '/^[a-z]/ { print $1 }' "$TMP/list"); do
	[ "$w" = skeleton ] && continue
	n=$((n + 1))
	grep -q "^| \`$w\` |" "$doc" || { echo "$w: no row in the overview table"; bad=1; }
	section "$w" >"$TMP/sec"
	if [ ! -s "$TMP/sec" ]; then
		echo "$w: no '## $w' section"
		bad=1
		continue
	fi
	# the plugin's block of `list workloads -v`: its param and metric lines
	awk -v w="$w" '/^[a-z]/ { on = ($1 == w); next } on && ($1 == "param" || $1 == "metric") { print $2 }' \
		"$TMP/list" >"$TMP/names"
	[ -s "$TMP/names" ] || die "$w: no params or metrics listed"
	while read -r name; do
		grep -qF "\`$name\`" "$TMP/sec" || { echo "$w: \`$name\` not in its section"; bad=1; }
	done <"$TMP/names"
done
[ $n -ge 6 ] || die "only $n workloads listed"
[ $bad = 0 ] || die "docs/workloads.md is missing workloads or their parameters/metrics"
echo "ok: $n workloads documented"
