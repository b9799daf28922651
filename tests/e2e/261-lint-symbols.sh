#!/bin/bash
# e2e: the layer lint sees what includes alone do not (issue 44 item 5).
# In a copy of the tree and its built objects, three bypasses are planted
# one at a time and tools/check-layout.py must name each file:
#   1. `#include <compare.h>` in harness/base (angle brackets, upward);
#   2. a local prototype of compare_open() and a call to it in
#      harness/base/units.c: no include at all, an upward call (nm);
#   3. a plugin including ../../harness/base/util.h.
. "$(dirname "$0")/../e2e-lib.sh"
lint_tree

check --symbols "$tree/build" || die "the unplanted tree fails: $(cat "$TMP/out")"

# 1. an angle-bracket include of a higher layer
cp "$tree/harness/base/units.c" "$TMP/units.c"
sed -i '0,/^#include "util.h"/s//#include "util.h"\n#include <compare.h>/' "$tree/harness/base/units.c"
check && die "<compare.h> in harness/base passed"
grep -q '^harness/base/units.c:[0-9]*: includes compare.h (harness/compare/.*an upward include' "$TMP/out" ||
	die "<compare.h> not named: $(cat "$TMP/out")"
cp "$TMP/units.c" "$tree/harness/base/units.c"

# 2. a local prototype and an upward call: only the objects show it
printf '\nint compare_open(void *db, void *sel, void *out);\nint mmb_planted(void);\nint mmb_planted(void) { return compare_open(0, 0, 0); }\n' \
	>> "$tree/harness/base/units.c"
(cd "$tree" && cc -std=gnu11 -D_GNU_SOURCE $(make -s -C "$top" host-inc | sed "s|-I|-I$top/|g") \
	-c -o build/obj/harness/base/units.o harness/base/units.c) || die "cannot build the planted units.c"
check || die "the include check alone sees the planted call: $(cat "$TMP/out")"
check --symbols "$tree/build" && die "an upward call through a local prototype passed"
grep -q '^harness/base/units.c: uses compare_open() of harness/compare/.* an upward call' "$TMP/out" ||
	die "the upward call not named: $(cat "$TMP/out")"
cp "$TMP/units.c" "$tree/harness/base/units.c"
cp "$B/obj/harness/base/units.o" "$tree/build/obj/harness/base/units.o"

# 3. a plugin reaching into the harness's headers
sed -i '0,/^#include/s//#include "..\/..\/harness\/base\/util.h"\n#include/' "$tree/workloads/skeleton/skeleton.c"
check && die "a plugin including harness/base/util.h passed"
grep -q '^workloads/skeleton/skeleton.c:[0-9]*: includes "../../harness/base/util.h"' "$TMP/out" ||
	die "the plugin's include not named: $(cat "$TMP/out")"
echo ok
