#!/bin/bash
# docs/ARCHITECTURE.md's recipes are true: in a copy of the tree, a toy
# workload is added in the 2 files its recipe names (the plugin, from the
# skeleton as docs/writing-workloads.md says, and its docs/workloads.md
# row and section), and a toy output format in 2 (the renderer and its
# golden test).  The copy builds (incrementally, from a copy of this
# build), lists and runs the workload, passes the docs check (e2e 35), and
# the new format appears in --format, its errors, help and man page,
# renders --by machine, and passes its own golden test and e2e 190.
. "$(dirname "$0")/../e2e-lib.sh"
SRC=${MMBENCH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
B=$(cd "${MMBENCH_BUILD:-build}" && pwd)
W=$TMP/tree
mkdir -p "$W/build"
# mtimes kept, so only what the recipes touch is rebuilt
tar -C "$SRC" --exclude=./build --exclude=./build-asan --exclude=./.git -cf - . | tar -C "$W" -xf -
tar -C "$B" --exclude=./cache --exclude=./tests -cf - . | tar -C "$W/build" -xf -
build() { make -C "$W" --no-print-directory -j2 BUILD=build SAN="${SAN:-}" all > "$TMP/make.log" 2>&1 ||
	die "the copy does not build after $1: $(tail -20 "$TMP/make.log")"; }
WB=$W/build
WM=$WB/mmbench

# -- a workload: 2 files ------------------------------------------------
mkdir "$W/workloads/toy"
sed 's/skeleton/toy/g' "$W/workloads/skeleton/skeleton.c" > "$W/workloads/toy/toy.c"	# file 1
build "the toy workload"
MMBENCH_PLUGIN_PATH=$WB/workloads "$WM" list workloads -v > "$TMP/list"
grep -q '^toy ' "$TMP/list" || die "list workloads does not show toy: $(cat "$TMP/list")"
{	# file 2: docs/workloads.md, a row and a section naming every parameter and metric
	echo
	echo '| `toy` | the skeleton'"'"'s passes | `seconds` | lower |'
	echo
	echo '## toy'
	echo
	awk '/^[a-z]/ { on = ($1 == "toy"); next } on && ($1 == "param" || $1 == "metric") { print "- `" $2 "`" }' "$TMP/list"
} >> "$W/docs/workloads.md"
# the row belongs in the overview table: after its last row
awk 'BEGIN { row = "" } /^\| `toy` \|/ { next } { print }' "$W/docs/workloads.md" > "$TMP/wl.md"
awk -v row='| `toy` | the skeleton'"'"'s passes | `seconds` | lower |' '
	{ print } /^\| `stress-ng` \|/ && !done { print row; done = 1 }' "$TMP/wl.md" > "$W/docs/workloads.md"
MMBENCH_BUILD=$WB bash "$W/tests/e2e/35-workload-docs.sh" > "$TMP/35.log" 2>&1 ||
	die "the docs check fails on the recipe's docs: $(cat "$TMP/35.log")"
printf 'experiment: toy\niterations: 3\nwarmup: 0\nworkloads:\n  - name: toy\n    params: { size: 1M }\n' > "$TMP/toy.yaml"
for label in a b; do
	MMBENCH_PLUGIN_PATH=$WB/workloads "$WM" run -q --db "$TMP/toy.db" --name $label "$TMP/toy.yaml" \
		> "$TMP/run.log" 2>&1 || die "run toy: $(cat "$TMP/run.log")"
done
"$WM" compare --db "$TMP/toy.db" a b > "$TMP/cmp" || die "compare of the toy runs failed"
grep -q '^toy ' "$TMP/cmp" || die "no toy row in: $(cat "$TMP/cmp")"

# -- an output format: 2 files ------------------------------------------
cat > "$W/harness/render/render-toy.c" <<'EOC'
/* toy: a line per row and label (the recipe test's format). */
#include "render.h"
#include "render-internal.h"
#include "util.h"

static void render_toy(struct strbuf *out, const struct compare *c)
{
	for (size_t r = 0; r < c->nr; r++)
		for (size_t i = 0; i < render_nlabels(c); i++)
			strbuf_addf(out, "toy %s %s %zu\n", c->rows[r].what.metric, render_label_of(c, i),
				    c->rows[r].sum[i].n);
}

DEFINE_RENDERER(toy, 70, render_toy, 0, render_by_machine_text);
EOC
cat > "$W/tests/e2e/265-format-toy.sh" <<'EOT'
#!/bin/bash
# --format toy of the aim9 fixtures
. "$(dirname "$0")/../e2e-lib.sh"
FIX=$(cd "$(dirname "$0")/.." && pwd)/fixtures/compare
"$MMB" -q import --db "$TMP/r.db" --name base "$FIX/aim9-base.csv"
"$MMB" -q import --db "$TMP/r.db" --name new "$FIX/aim9-new.csv"
"$MMB" compare --db "$TMP/r.db" --format toy base new > "$TMP/out"
grep -q '^toy brk_test.ops_per_sec base [0-9]' "$TMP/out" || die "$(cat "$TMP/out")"
grep -q '^toy brk_test.ops_per_sec new [0-9]' "$TMP/out" || die "$(cat "$TMP/out")"
echo ok
EOT
build "the toy format"
MMBENCH_BUILD=$WB bash "$W/tests/e2e/265-format-toy.sh" > "$TMP/t.log" 2>&1 ||
	die "the toy format's own test: $(cat "$TMP/t.log")"
MMBENCH_BUILD=$WB MMBENCH_SRC=$W bash "$W/tests/e2e/190-renderer-table.sh" > "$TMP/190.log" 2>&1 ||
	die "e2e 190 with the toy format: $(cat "$TMP/190.log")"
# --by machine prints the format's own output per machine, not another format's
"$WM" compare --db "$TMP/toy.db" --by machine --format toy a b > "$TMP/bym" ||
	die "compare --by machine --format toy failed"
grep -q '^toy ' "$TMP/bym" || die "no toy line under --by machine: $(cat "$TMP/bym")"
"$WM" help compare | grep -q -- '--format [a-z|]*toy' || die "compare's help does not list toy"
grep -q 'toy' "$W/docs/man/mmbench-compare.1" || die "the man page does not list toy"
echo ok
