#!/bin/bash
# The layout checker (tools/check-layout.py, run by `make lint` on the real
# tree) catches each breach planted in a small tree of its own: an upward
# include, a folder in no layer, a stale layer graph, a long function, a long
# file, sqlite3_ outside db/, a program run without harness/base/proc.c, a
# doc naming a missing source; the same tree
# without the breaches passes.  Plugins compile with -Iinclude only; struct
# mmb_db is opaque outside db/ (code that reaches into it does not compile).
. "$(dirname "$0")/../e2e-lib.sh"
SRC=${MMBENCH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
CC=${CC:-cc}
command -v python3 >/dev/null || skip "needs python3"
CHK=$SRC/tools/check-layout.py

T=$TMP/tree
mkdir -p "$T/harness/base" "$T/harness/run" "$T/harness/commands" "$T/db" "$T/plot" "$T/workloads/w" "$T/docs"
cat > "$T/docs/ARCHITECTURE.md" <<'EOD'
# planted
<!-- layers: lowest first -->
| # | layer | folders | what |
|---|---|---|---|
| 0 | base | `harness/base` | - |
| 1 | db | `db` | - |
| 2 | run | `harness/run`, `plot` | - |
| 3 | commands | `harness/commands` | - |
<!-- layers end -->
The runner is harness/run/loop.c.
EOD
echo "int util(void);" > "$T/harness/base/util.h"
printf '#include "util.h"\nint util(void) { return 0; }\n' > "$T/harness/base/util.c"
echo "int loop(void);" > "$T/harness/run/loop.h"
printf '#include "util.h"\n#include "loop.h"\nint loop(void) { return util(); }\n' > "$T/harness/run/loop.c"
printf '#include "loop.h"\nint main(void) { return loop(); }\n' > "$T/harness/commands/mmbench.c"
echo "int h(void) { return sqlite3_open(0, 0); }" > "$T/db/ok.c"
# the one process runner may exec; a string that reads like a call is no call
printf 'int p(void) { return execvp("x", 0); }\n' > "$T/harness/base/proc.c"
printf 'const char *s = "the batch system (slurm)";\n' > "$T/harness/base/words.c"
python3 "$CHK" --graph "$T" > "$T/docs/layers.md"
python3 "$CHK" "$T" > "$TMP/clean" || die "a clean tree fails the checker: $(cat "$TMP/clean")"
grep -q '`harness/commands/` → harness/run/ (1)' "$T/docs/layers.md" ||
	die "the graph misses commands -> run: $(cat "$T/docs/layers.md")"

# the breaches
printf '#include "loop.h"\n' >> "$T/harness/base/util.c"
mkdir -p "$T/harness/extra" && echo "int x;" > "$T/harness/extra/x.c"
{ echo "int long_one(void)"; echo "{"; for i in $(seq 1 110); do echo "	(void)$i;"; done
  echo "	return 0;"; echo "}"; } > "$T/workloads/w/w.c"
for i in $(seq 1 1001); do echo "int v$i;"; done > "$T/harness/run/big.c"
echo "int g(void) { return sqlite3_open(0, 0); }" > "$T/plot/p.c"
echo "The loader is harness/run/loader.c." >> "$T/docs/ARCHITECTURE.md"
printf 'int q(void) { return system("ls"); }\n' > "$T/harness/run/shell.c"
set +e
python3 "$CHK" "$T" > "$TMP/planted"
rc=$?
set -e
[ $rc = 1 ] || die "planted breaches: checker exited $rc"
expect() { grep -qF -- "$1" "$TMP/planted" || die "not caught: $1
$(cat "$TMP/planted")"; }
expect "harness/base/util.c:3: includes loop.h (harness/run/, layer 2 run) from layer 0 base: an upward include"
expect "harness/extra/x.c: folder harness/extra/ is in no layer of docs/ARCHITECTURE.md"
expect "workloads/w/w.c:2: long_one() is 113 lines, over 100"
expect "harness/run/big.c: 1001 lines, over 1000"
expect "plot/p.c:1: sqlite3_ outside db/"
expect "docs/ARCHITECTURE.md:11: names harness/run/loader.c, which does not exist"
expect "harness/run/shell.c:1: system() outside harness/base/proc.c"
grep -q "proc.c:1\|words.c" "$TMP/planted" && die "proc.c or a string flagged as running a program"
grep -q "db/ok.c" "$TMP/planted" && die "sqlite3_ in db/ flagged"
grep -q "loop.c, which" "$TMP/planted" && die "an existing source flagged as missing"
python3 "$CHK" --graph "$T" > "$T/docs/layers.md"
python3 "$CHK" "$T" > "$TMP/planted2" || true
grep -q "docs/layers.md" "$TMP/planted2" && die "a regenerated graph still called stale"
printf '#include "util.h"\n' >> "$T/harness/commands/mmbench.c"
python3 "$CHK" "$T" > "$TMP/planted3" || true
grep -qF "docs/layers.md: not the current include graph: run \`make layer-graph\`" "$TMP/planted3" ||
	die "a stale graph not caught: $(cat "$TMP/planted3")"

# plugins see include/ only
for f in "$SRC"/workloads/*/*.c "$SRC"/tests/plugins/*.c; do
	"$CC" -std=gnu11 -D_GNU_SOURCE -I"$SRC/include" -fsyntax-only "$f" 2> "$TMP/cc" ||
		die "$f does not build with -Iinclude only: $(cat "$TMP/cc")"
done

# the DB handle is opaque: reaching into it outside db/ does not compile
cat > "$TMP/peek.c" <<'EOC'
#include "db.h"
int peek(struct mmb_db *db) { return db->c->reserve_fd; }
EOC
if "$CC" -std=gnu11 -I"$SRC/include" -I"$SRC/harness/base" -I"$SRC/db" -fsyntax-only \
	"$TMP/peek.c" 2> "$TMP/cc"; then
	die "code outside db/ can read struct mmb_db's insides"
fi
grep -q "incomplete type\|undefined type .struct db_conn" "$TMP/cc" ||
	die "peeking failed for another reason: $(cat "$TMP/cc")"
echo "ok: the layout checker catches each planted breach"
