#!/usr/bin/env python3
"""The layout rules of docs/ARCHITECTURE.md, checked on a tree (make lint).

  - layers: the table between the `layers:` markers of docs/ARCHITECTURE.md
    gives each folder of harness/, db/ and plot/ a layer, lowest first; a
    file includes headers of its own layer and those below only, every
    folder is in the table, and every header name is unique (headers are
    included by bare name);
  - docs/layers.md is the include graph as this checker draws it (--graph);
  - no C function in harness/, db/, plot/ or workloads/ over 100 lines
    (a body runs from a '{' in column 0 to the next '}' in column 0), and
    no C file there over 1,000 lines, except what ALLOW_LONG lists;
  - sqlite3_ in no C source outside db/ and tests/;
  - text leaves a results DB escaped (db/db-internal.h): sqlite3_column_text()
    only in db/rows.c (the accessors), db_col_raw() and DB_COL(RAW, ...) only
    in the files RAW_TEXT_OK lists, which read text as data;
  - exec*(), posix_spawn(), popen() and system() in no C source of
    harness/, db/ or plot/ but harness/base/proc.c;
  - at most MAX_REPEATS repeated six-line blocks in harness/, db/, plot/
    and workloads/ (plugin descriptor tables are alike by design and not
    counted);
  - each e2e test has a number of its own (docs and notes cite "e2e NN");
  - every harness/, db/ or plot/ source path a doc names exists;
  - with --symbols BUILD (make lint, on built objects): each object of a
    layer references only symbols defined in its own layer or below (`nm`:
    a local prototype and an upward call pass the include check), no
    plugin references a symbol the harness defines, and plugin sources
    include only <mmbench/...>, system headers and files of their own
    folder.

Prints one line per breach and exits 1, or exits 0 quietly.
Usage: tools/check-layout.py [--graph] [ROOT]
"""
import os
import re
import sys

MAX_FUNC_LINES = 100
MAX_FILE_LINES = 1000
# the goal is 25; lowered as the repeats are folded into shared code.  Of
# the 29 left most are typed wrappers of one shape with other logic: db's
# list questions (a column map, a query, a free each), the plugins'
# teardown hooks, release and init functions of other structs.
MAX_REPEATS = 29
WINDOW = 6
CODE_TOPS = ('harness', 'db', 'plot', 'workloads')
# Over a limit on purpose, each with its reason: (path, function or None
# for the whole file) -> why.  The check fails when a listed entry is no
# longer over its limit, so the list only shrinks.
ALLOW_LONG = {
    # over the limits when they were set; each goes when its file is split
}


# Cycles of files that depend on each other, allowed with their reason.  A
# cycle means the two files are one unit split in two: the shared helper
# belongs in a file below both.  At most one entry (issue 44).
ALLOW_CYCLES = {
    ('harness/machine/contain.c', 'harness/machine/envctl.c'):
        'a cgroup contain creates is journaled by envctl before it is used, and '
        'envctl\'s replay removes it with contain\'s own teardown: the journal and '
        'the cgroup are one mechanism (crash-safe cleanup) split by job',
}


def src_files(root, top, exts=('.c', '.h')):
    for dp, dn, fn in os.walk(os.path.join(root, top)):
        dn.sort()
        for f in sorted(fn):
            if f.endswith(exts):
                yield os.path.join(dp, f)


def read_lines(path):
    with open(path, errors='replace') as f:
        return f.read().split('\n')


def functions(path):
    lines = read_lines(path)
    start = None
    for i, line in enumerate(lines):
        if line.startswith('{') and start is None:
            sig = ' '.join(lines[max(0, i - 4):i])
            names = re.findall(r'(\w+)\s*\(', sig)
            name = names[-1] if names else '?'
            # the name is the last identifier called in the signature's first line
            for j in range(i - 1, max(-1, i - 5), -1):
                m = re.match(r'^[A-Za-z_].*?(\w+)\s*\(', lines[j])
                if m:
                    name = m.group(1)
                    break
            start = i
        elif line.startswith('}') and start is not None:
            yield name, start + 1, i - start + 1
            start = None


# ---- layers ----------------------------------------------------------------

def layer_table(root):
    """[(rank, name, [folders])] from docs/ARCHITECTURE.md's marked table."""
    path = os.path.join(root, 'docs', 'ARCHITECTURE.md')
    if not os.path.exists(path):
        return None, 'docs/ARCHITECTURE.md: missing (it holds the layer table)'
    rows, inside = [], False
    for k, line in enumerate(read_lines(path), 1):
        if '<!-- layers:' in line:
            inside = True
            continue
        if '<!-- layers end' in line:
            break
        if not inside or not line.startswith('|') or set(line) <= set('|-: '):
            continue
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if len(cells) < 3 or not cells[0].isdigit():
            continue
        folders = re.findall(r'`([^`]+)`', cells[2])
        if not folders:
            return None, f'docs/ARCHITECTURE.md:{k}: layer {cells[1]} names no folder'
        rows.append((int(cells[0]), cells[1], folders))
    if not rows:
        return None, 'docs/ARCHITECTURE.md: no layer table between <!-- layers: --> and <!-- layers end -->'
    return rows, None


def layer_of_folder(rows):
    return {f: (rank, name) for rank, name, folders in rows for f in folders}


def include_edges(root, rows, bad):
    """[(file, line, header, from folder, to folder)]; records breaches."""
    folder_layer = layer_of_folder(rows)
    where = {}
    for top in ('harness', 'db', 'plot'):
        for p in src_files(root, top):
            rel = os.path.relpath(p, root)
            folder = os.path.dirname(rel)
            if folder not in folder_layer:
                bad.append(f"{rel}: folder {folder}/ is in no layer of docs/ARCHITECTURE.md")
                continue
            if p.endswith('.h'):
                name = os.path.basename(p)
                if name in where:
                    bad.append(f"{rel}: header name {name} is also {where[name]} "
                               "(headers are included by bare name)")
                where.setdefault(name, rel)
    edges = []
    for top in ('harness', 'db', 'plot'):
        for p in src_files(root, top):
            rel = os.path.relpath(p, root)
            folder = os.path.dirname(rel)
            if folder not in folder_layer:
                continue
            for k, line in enumerate(read_lines(p), 1):
                m = re.match(r'\s*#\s*include\s+["<]([^">]+)[">]', line)
                if not m:
                    continue
                name = os.path.basename(m.group(1))
                if name not in where:
                    continue        # a public header (include/mmbench) or a local one
                to = os.path.dirname(where[name])
                edges.append((rel, k, name, folder, to))
                (fr, fname), (tr, tname) = folder_layer[folder], folder_layer[to]
                if tr > fr:
                    bad.append(f"{rel}:{k}: includes {name} ({to}/, layer {tr} {tname}) "
                               f"from layer {fr} {fname}: an upward include")
    return edges


# ---- the file graph --------------------------------------------------------

def file_edges(root, edges, calls):
    """{(from file, to file): why} of the include edges (file -> header) and
    the call edges (object -> object), the first reason of each pair."""
    where = {}
    for top in ('harness', 'db', 'plot'):
        for p in src_files(root, top, ('.h',)):
            where.setdefault(os.path.basename(p), os.path.relpath(p, root))
    out = {}
    for rel, k, name, _, _ in edges:
        to = where.get(name)
        if to and to != rel:
            out.setdefault((rel, to), f'#include "{name}" (line {k})')
    for (a, b), sym in sorted(calls.items()):
        out.setdefault((a, b), f'{sym}()')
    return out


def file_cycles(fedges):
    """The strongly connected components of two files or more, sorted."""
    adj = {}
    for a, b in fedges:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, [])
    index, low, stack, on, comps, n = {}, {}, [], set(), [], [0]
    for start in sorted(adj):
        if start in index:
            continue
        work = [(start, iter(sorted(adj[start])))]
        index[start] = low[start] = n[0]
        n[0] += 1
        stack.append(start)
        on.add(start)
        while work:         # Tarjan's algorithm without recursion
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = n[0]
                    n[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(adj[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    comps.append(tuple(sorted(comp)))
    return sorted(comps)


def check_cycles(root, fedges, bad, calls_read):
    allow = allowed_cycles(root)
    seen = set()
    for comp in file_cycles(fedges):
        if comp in allow:
            seen.add(comp)
            continue
        members = set(comp)
        steps = []
        for a in comp:
            b = next(b for b in comp if (a, b) in fedges and b in members)
            steps.append(f"{a} -> {b}: {fedges[(a, b)]}")
        bad.append(f"file cycle of {len(comp)}: {', '.join(comp)} "
                   f"({'; '.join(steps)}): move what they share into a file below them")
    if len(ALLOW_CYCLES) > 1:
        bad.append("tools/check-layout.py: ALLOW_CYCLES holds more than one cycle")
    for comp in sorted(set(allow) - seen):
        if calls_read:
            bad.append(f"{', '.join(comp)}: no longer a cycle: take it off ALLOW_CYCLES "
                       "in tools/check-layout.py")


def allowed_cycles(root):
    """ALLOW_CYCLES as far as its files are in root (a tree of the tests
    holds other files)."""
    return {c: why for c, why in ALLOW_CYCLES.items()
            if all(os.path.exists(os.path.join(root, f)) for f in c)}


def graph_text(root, rows, edges):
    folder_layer = layer_of_folder(rows)
    count = {}
    for _, _, _, fr, to in edges:
        if fr != to:
            count[(fr, to)] = count.get((fr, to), 0) + 1
    out = ['# The layer graph',
           '',
           '<!-- generated by tools/check-layout.py --graph (make layer-graph); do not edit -->',
           '',
           'Includes between folders, counted per `#include` line, from the layers',
           'of docs/ARCHITECTURE.md (lowest first).  Every arrow points down or',
           'stays in its layer; `make lint` fails otherwise.',
           '']
    for rank, name, folders in rows:
        out.append(f'## {rank} {name}')
        out.append('')
        for f in folders:
            outs = sorted(((folder_layer[t][0], t, n) for (a, t), n in count.items() if a == f),
                          key=lambda x: (-x[0], x[1]))
            arrows = ', '.join(f'{t}/ ({n})' for _, t, n in outs) or 'nothing outside itself'
            out.append(f'- `{f}/` → {arrows}')
        out.append('')
    out.append('## File cycles')
    out.append('')
    out.append('Files that include or call each other (`make lint` reads the calls from')
    out.append('the objects); any cycle but these fails it.')
    out.append('')
    allow = allowed_cycles(root)
    for comp, why in sorted(allow.items()):
        out.append(f'- {" ↔ ".join(f"`{c}`" for c in comp)}: {why}')
    if not allow:
        out.append('- none')
    out.append('')
    return '\n'.join(out).rstrip('\n') + '\n'


# ---- size limits -----------------------------------------------------------

def check_sizes(root, bad, notes):
    seen = set()
    for top in CODE_TOPS:
        for p in src_files(root, top, ('.c',)):
            rel = os.path.relpath(p, root)
            nlines = len(read_lines(p)) - 1
            if nlines > MAX_FILE_LINES:
                if (rel, None) in ALLOW_LONG:
                    seen.add((rel, None))
                    notes.append(f"{rel}: {nlines} lines (allowed: {ALLOW_LONG[(rel, None)]})")
                else:
                    bad.append(f"{rel}: {nlines} lines, over {MAX_FILE_LINES}")
            for name, line, n in functions(p):
                if n <= MAX_FUNC_LINES:
                    continue
                if (rel, name) in ALLOW_LONG:
                    seen.add((rel, name))
                    notes.append(f"{rel}:{line}: {name}() is {n} lines (allowed: {ALLOW_LONG[(rel, name)]})")
                    continue
                bad.append(f"{rel}:{line}: {name}() is {n} lines, over {MAX_FUNC_LINES}")
    for rel, name in sorted(set(ALLOW_LONG) - seen, key=str):
        if os.path.exists(os.path.join(root, rel)):
            what = f"{name}()" if name else "the file"
            bad.append(f"{rel}: {what} is within its limit now: "
                       "take it off ALLOW_LONG in tools/check-layout.py")


# ---- repeated code ---------------------------------------------------------

def descriptor_lines(lines):
    """Indexes of lines inside a plugin's descriptor tables (struct mmb_param,
    mmb_metric, mmb_workload initialisers): alike by the ABI's design."""
    skip, depth = set(), 0
    for i, line in enumerate(lines):
        if depth == 0 and re.match(r'\s*(static\s+)?(const\s+)?struct\s+mmb_(param|metric|workload)\b.*=', line):
            depth = 1 if '{' in line else 0
            skip.add(i)
            if '{' not in line:
                depth = -1      # the brace comes on the next line
            continue
        if depth:
            skip.add(i)
            if depth == -1:
                depth = 0
            depth += line.count('{') - line.count('}')
            if depth <= 0:
                depth = 0
    return skip


C_WORDS = set('auto break case char const continue default do double else enum extern float for goto '
              'if inline int long register restrict return short signed sizeof static struct switch '
              'typedef union unsigned void volatile while bool size_t NULL'.split())


def shape(s):
    """A line with its names, strings and numbers replaced: code that does
    the same with other names counts as repeated."""
    s = re.sub(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'', 'S', s)
    s = re.sub(r'\b\d[\w.]*', 'N', s)
    return re.sub(r'\b[A-Za-z_]\w*', lambda m: m.group(0) if m.group(0) in C_WORDS else 'I', s)


def repeated_blocks(root):
    """Maximal runs of >= WINDOW normalised lines found twice or more:
    [(first location, second location, length)], tests/ excluded."""
    seqs = []
    for top in CODE_TOPS:
        for p in src_files(root, top):
            lines = read_lines(p)
            skip = descriptor_lines(lines)
            norm = []
            for i, l in enumerate(lines):
                s = ' '.join(l.split())
                # blank lines, lone braces, comments and includes say nothing
                if i in skip or not s or s in ('{', '}', '};', '},') or \
                   s.startswith(('/*', '*', '//', '#include', '"', '{', '[')):
                    continue        # data tables and text are not code to share
                norm.append((shape(s), i + 1))
            seqs.append((os.path.relpath(p, root), norm))
    first = {}
    hits = []
    for fi, (rel, norm) in enumerate(seqs):
        for k in range(len(norm) - WINDOW + 1):
            key = tuple(s for s, _ in norm[k:k + WINDOW])
            if len(set(key)) < WINDOW // 2:
                continue            # a run of like lines: a list, not logic
            if key in first:
                hits.append((first[key], (fi, k)))
            else:
                first[key] = (fi, k)
    # merge overlapping windows of the same pair of places into one block
    blocks, last = [], {}
    for (fa, ka), (fb, kb) in sorted(hits):
        prev = last.get((fa, fb, kb - ka))
        if prev is not None and prev[1] == ka - 1:
            prev[1] = ka
            prev[2] += 1
            continue
        blk = [ka, ka, WINDOW]
        last[(fa, fb, kb - ka)] = blk
        blocks.append((fa, fb, kb - ka, blk))
    out = []
    for fa, fb, d, (k0, _, n) in blocks:
        a = f"{seqs[fa][0]}:{seqs[fa][1][k0][1]}"
        b = f"{seqs[fb][0]}:{seqs[fb][1][k0 + d][1]}"
        out.append((a, b, n))
    return out


# ---- the rest --------------------------------------------------------------

def check_sql(root, bad):
    for top in sorted(os.listdir(root)):
        if top in ('db', 'tests', '.git') or top.startswith('build') or \
           not os.path.isdir(os.path.join(root, top)):
            continue
        for p in src_files(root, top):
            for k, line in enumerate(read_lines(p), 1):
                if 'sqlite3_' in line:
                    bad.append(f"{os.path.relpath(p, root)}:{k}: sqlite3_ outside db/")


# db/ files that read text as data, not to show it (db_col_raw, DB_COL(RAW)
RAW_TEXT_OK = {
    'db/rows.c': 'the accessors themselves; DB_RAW, the column map\'s raw kind',
    'db/db.c': 'a run\'s host compared with ours',
    'db/dump.c': 'export JSON: the data byte for byte (JSON escapes it)',
    'db/export.c': 'export CSV: the data byte for byte (it imports back)',
    'db/guard.c': 'the schema\'s SQL compared with ours',
    'db/merge-file.c': 'schema names, and labels and builds compared between two DBs',
    'db/query.c': 'sample blocks (JSON text)',
    'db/read.c': 'a label selected by (run --compare), the experiment resume parses',
}


def check_db_text(root, bad):
    for p in src_files(root, 'db', ('.c',)):
        rel = os.path.relpath(p, root)
        for k, line in enumerate(read_lines(p), 1):
            if 'sqlite3_column_text' in line and rel != 'db/rows.c':
                bad.append(f"{rel}:{k}: sqlite3_column_text() outside db/rows.c "
                           "(read text with db_col_str/db_col_dup/db_col_text: escaped)")
            if re.search(r'\bdb_col_raw\s*\(|DB_COL\(\s*RAW\b', line) and rel not in RAW_TEXT_OK:
                bad.append(f"{rel}:{k}: raw text read in a file that shows it "
                           "(db_col_str/db_col_dup/db_col_text escape; or list the file "
                           "in RAW_TEXT_OK of tools/check-layout.py if it is data)")


EXEC_CALL = re.compile(r'\b(execv|execvp|execvpe|execve|execl|execlp|execle|posix_spawnp?|'
                       r'popen|system)\s*\(')


def check_exec(root, bad):
    """Other programs run through harness/base/proc.c only (argv, no shell).
    Plugins are not held to it: one that wraps a program (stress-ng) runs
    it in its own forked iteration, and sees nothing of the host's code."""
    for top in ('harness', 'db', 'plot'):
        for p in src_files(root, top, ('.c',)):
            rel = os.path.relpath(p, root)
            if rel == 'harness/base/proc.c':
                continue
            for k, line in enumerate(read_lines(p), 1):
                code = re.sub(r'"(\\.|[^"\\])*"', '""', line.split('//')[0])
                if code.lstrip().startswith(('*', '/*')):
                    continue
                m = EXEC_CALL.search(code)
                if m:
                    bad.append(f"{rel}:{k}: {m.group(1)}() outside harness/base/proc.c "
                               "(run programs with proc_run/proc_start)")


def check_e2e_numbers(root, bad):
    e2e = os.path.join(root, 'tests', 'e2e')
    by_num = {}
    for f in sorted(os.listdir(e2e)) if os.path.isdir(e2e) else ():
        m = re.match(r'(\d+)-.*\.sh$', f)
        if m:
            by_num.setdefault(m.group(1), []).append(f)
    for num, names in sorted(by_num.items()):
        if len(names) > 1:
            bad.append(f"tests/e2e: number {num} is used by {', '.join(names)}")


def check_doc_paths(root, bad):
    docs = os.path.join(root, 'docs')
    for p in src_files(root, 'docs', ('.md',)) if os.path.isdir(docs) else ():
        for k, line in enumerate(read_lines(p), 1):
            for m in re.finditer(r'\b((?:harness|db|plot)/[\w./-]*\w\.[ch])\b', line):
                if re.search(r'[A-Z]', m.group(1)):
                    continue        # a pattern (engine-NAME.c), not a file
                if not os.path.exists(os.path.join(root, m.group(1))):
                    bad.append(f"{os.path.relpath(p, root)}:{k}: names {m.group(1)}, which does not exist")


# ---- symbols ---------------------------------------------------------------

def nm_symbols(path):
    """({defined global}, {undefined}) of an object or shared object."""
    import subprocess
    out = subprocess.run(['nm', '-P', path], capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.split('\n'):
        f = line.split()
        if len(f) < 2:
            continue
        if f[1] == 'U':
            undefined.add(f[0])
        elif f[1] in 'TDBRCGSVW':
            defined.add(f[0])
    return defined, undefined


def check_symbols(root, build, rows, bad, calls):
    folder_layer = layer_of_folder(rows)
    objroot = os.path.join(build, 'obj')
    owner, uses = {}, []
    for top in ('harness', 'db', 'plot'):
        for dp, _, fn in os.walk(os.path.join(objroot, top)):
            for f in sorted(fn):
                if not f.endswith('.o'):
                    continue
                rel = os.path.relpath(os.path.join(dp, f), objroot)[:-2] + '.c'
                folder = os.path.dirname(rel)
                if folder not in folder_layer or not os.path.exists(os.path.join(root, rel)):
                    continue        # a stale object of a moved file
                d, u = nm_symbols(os.path.join(dp, f))
                for sym in d:
                    owner[sym] = rel
                uses.append((rel, folder, u))
    if not uses:
        bad.append(f"{objroot}: no objects to check symbols in (build first)")
        return
    for rel, folder, undefined in uses:
        fr, fname = folder_layer[folder]
        for sym in sorted(undefined):
            if sym not in owner:
                continue        # libc, SQLite, libyaml
            if owner[sym] != rel:
                calls.setdefault((rel, owner[sym]), sym)
            to = os.path.dirname(owner[sym])
            tr, tname = folder_layer[to]
            if tr > fr:
                bad.append(f"{rel}: uses {sym}() of {owner[sym]} (layer {tr} {tname}) "
                           f"from layer {fr} {fname}: an upward call")
    for so in sorted(os.listdir(os.path.join(build, 'workloads'))) \
            if os.path.isdir(os.path.join(build, 'workloads')) else []:
        if not so.endswith('.so'):
            continue
        _, undefined = nm_symbols(os.path.join(build, 'workloads', so))
        for sym in sorted(undefined & set(owner)):
            bad.append(f"build/workloads/{so}: references {sym} of {owner[sym]}: "
                       "plugins reach the host only through the function table")


def check_plugin_includes(root, bad):
    """Plugins see <mmbench/...>, system headers and their own folder only."""
    own = {os.path.basename(p) for top in ('harness', 'db', 'plot') for p in src_files(root, top, ('.h',))}
    for p in src_files(root, 'workloads'):
        rel = os.path.relpath(p, root)
        here = os.path.dirname(p)
        for k, line in enumerate(read_lines(p), 1):
            m = re.match(r'\s*#\s*include\s+(["<])([^">]+)[">]', line)
            if not m:
                continue
            q, name = m.groups()
            if q == '"' and ('/' in name or not os.path.exists(os.path.join(here, name))):
                bad.append(f"{rel}:{k}: includes \"{name}\": a plugin includes only "
                           "<mmbench/...>, system headers and files of its own folder")
            elif q == '<' and not name.startswith('mmbench/') and \
                    ('..' in name or name.split('/')[0] in ('harness', 'db', 'plot') or name in own):
                bad.append(f"{rel}:{k}: includes <{name}>: a harness header; plugins see "
                           "only include/mmbench/")


def main(argv):
    graph = '--graph' in argv
    build = None
    if '--symbols' in argv:
        i = argv.index('--symbols')
        build = argv[i + 1] if i + 1 < len(argv) else 'build'
        argv = argv[:i] + argv[i + 2:]
    args = [a for a in argv if a != '--graph']
    root = args[0] if args else '.'
    bad, notes = [], []
    rows, err = layer_table(root)
    if err:
        print(err)
        return 1
    edges = include_edges(root, rows, bad)
    text = graph_text(root, rows, edges)
    if graph:
        sys.stdout.write(text)
        return 0
    gpath = os.path.join(root, 'docs', 'layers.md')
    if not os.path.exists(gpath) or open(gpath).read() != text:
        bad.append("docs/layers.md: not the current include graph: run `make layer-graph`")
    check_sizes(root, bad, notes)
    check_sql(root, bad)
    check_db_text(root, bad)
    check_exec(root, bad)
    reps = repeated_blocks(root)
    if len(reps) > MAX_REPEATS:
        for a, b, n in reps:
            bad.append(f"{a}: {n} lines repeated at {b}")
        bad.append(f"{len(reps)} repeated blocks of {WINDOW}+ lines, over {MAX_REPEATS}")
    check_e2e_numbers(root, bad)
    check_doc_paths(root, bad)
    check_plugin_includes(root, bad)
    calls = {}
    if build:
        check_symbols(root, build, rows, bad, calls)
    check_cycles(root, file_edges(root, edges, calls), bad, bool(build))
    if os.environ.get('LAYOUT_VERBOSE'):
        for n in notes:
            print(n)
        print(f"repeated blocks: {len(reps)} (limit {MAX_REPEATS})")
        for a, b, n in reps:
            print(f"  {a}: {n} lines repeated at {b}")
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
