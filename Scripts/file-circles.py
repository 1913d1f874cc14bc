#!/usr/bin/env python3
# Lists circles between the files of Sources/CalcCLI and Sources/CalcCore. File A uses file B when
# A names a type that B declares at its top level, or names a member that B declares in an
# extension (`extension REPL { func openJournal … }` in B: A's `openJournal(` or `.openJournal`),
# comments and string literals left out; a member name that A declares itself is A's own.
#
# A type split over files by job is one unit: a file that declares no type of its own (private
# helpers aside) and extends exactly one type of these files (LineInterpreter+Notes.swift:
# LineInterpreter, and the engine's types beside it) goes with the file that declares that type,
# and uses between the files of one unit are no circle. A file that declares a type of its own
# and extends another (a REPL member in Resume.swift, beside ResumedSession) is a file of its own,
# and so are its members.
#
# Prints each two-file circle, every group of units that reach each other (a cycle of any length),
# and any file of the core that uses a file of CalcCLI. With -v, also the units and which file
# uses which (`A -> B (what)`). Run from the root.
import re, glob, os, sys

files = sorted(glob.glob('Sources/CalcCLI/*.swift') + glob.glob('Sources/CalcCore/*.swift'))
name = lambda f: os.path.relpath(f, 'Sources')


def strip(source):
    """The code of `source` without comments and string literals (interpolations kept)."""
    out = []
    i, n = 0, len(source)

    def string(i, quote):
        # `i` is just past the opening quote; returns the index past the closing one.
        while i < n:
            if source.startswith('\\(', i):
                i = code(i + 2, ')')
            elif source[i] == '\\':
                i += 2
            elif source.startswith(quote, i):
                return i + len(quote)
            elif quote == '"' and source[i] == '\n':
                return i  # an unterminated literal ends with its line
            else:
                i += 1
        return i

    def code(i, until=None):
        depth = 0
        while i < n:
            c = source[i]
            if source.startswith('//', i):
                j = source.find('\n', i)
                i = n if j < 0 else j
            elif source.startswith('/*', i):
                level, i = 1, i + 2
                while i < n and level:
                    if source.startswith('/*', i): level, i = level + 1, i + 2
                    elif source.startswith('*/', i): level, i = level - 1, i + 2
                    else: i += 1
                out.append(' ')
            elif source.startswith('"""', i):
                i = string(i + 3, '"""')
                out.append('""')
            elif c == '"':
                i = string(i + 1, '"')
                out.append('""')
            else:
                if until and c == '(':
                    depth += 1
                elif until and c == until:
                    if depth == 0:
                        return i + 1
                    depth -= 1
                out.append(c)
                i += 1
        return i

    code(0)
    return ''.join(out)


def blocks(src, start):
    """The text of the `{ … }` block whose `{` is the first at or after `start`, and its end."""
    open_ = src.index('{', start)
    depth, i = 0, open_
    while i < len(src):
        if src[i] == '{': depth += 1
        elif src[i] == '}':
            depth -= 1
            if depth == 0: return src[open_ + 1:i], i + 1
        i += 1
    return src[open_ + 1:], len(src)


def top_level_members(body):
    """Names of the functions, properties and cases declared at the top level of `body` that other
    files can see (not `private` or `fileprivate`)."""
    flat, depth = [], 0
    for c in body:
        if c == '{': depth += 1
        elif c == '}': depth -= 1
        elif depth == 0: flat.append(c)
    found = set()
    for line in ''.join(flat).split('\n'):
        m = re.search(r'\b(?:func|var|let|case)\s+([A-Za-z_]\w*)', line)
        if m and not re.search(r'\b(?:private|fileprivate)\b(?!\()', line[:m.start()]):
            found.add(m.group(1))
    return found


modifiers = r'(?:(?:public|package|internal|private|fileprivate|final|indirect|static|nonisolated)(?:\([^)]*\))?\s+)*'
decl, sources, extended, declares_type, members = {}, {}, {}, {}, {}
for f in files:
    src = strip(open(f).read())
    b = name(f)
    sources[b] = src
    # A `private` or `fileprivate` type is the file's own helper: no other file can name it.
    types = [m.group(2) for m in re.finditer(
        r'^(?:@\w+(?:\([^)]*\))?\s+)*(' + modifiers + r')(?:struct|enum|class|protocol|actor|typealias)\s+(\w+)',
        src, re.M) if not re.search(r'\b(?:private|fileprivate)\b(?!\()', m.group(1))]
    declares_type[b] = bool(types)
    for t in types:
        decl.setdefault(t, b)
    extended[b] = []
    for m in re.finditer(r'^(?:@\w+(?:\([^)]*\))?\s+)*' + modifiers + r'extension\s+([\w.]+)', src, re.M):
        body, _ = blocks(src, m.end())
        if re.search(r'\b(?:private|fileprivate)\b', m.group(0)): continue
        extended[b].append(m.group(1).split('.')[0])
        for member in top_level_members(body):
            members.setdefault(member, set()).add((b, m.group(1).split('.')[0]))

# Every name a file declares (members, properties, locals; parameters are left out): a use of such
# a name in that file is taken to be the file's own.
declares = lambda src: set(re.findall(r'\b(?:func|var|let|case)\s+([A-Za-z_]\w*)', src))
own = {b: declares(src) for b, src in sources.items()}
# Where each name is declared in all of Sources (the engine's too): a member whose name is declared
# in another file as well (`write`, `result`) is taken to be used only by a file that names its type.
everywhere = {}
for f in glob.glob('Sources/**/*.swift', recursive=True):
    for n in declares(strip(open(f).read())):
        everywhere.setdefault(n, set()).add(name(f))

# Units: a file of extensions alone, of exactly one type declared in these files, joins that file.
unit = {b: b for b in sources}
for b in sources:
    local = sorted(set(t for t in extended[b] if t in decl))
    if not declares_type[b] and len(local) == 1:
        unit[b] = decl[local[0]]

uses, why = {}, {}
for b, src in sources.items():
    words = set(re.findall(r'[A-Za-z_]\w*', src))
    reasons = {}
    for t, df in decl.items():
        if df != b and t in words:
            reasons.setdefault(df, []).append(t)
    for member, where in members.items():
        if member not in words or member in own[b]:
            continue
        if not re.search(r'(?:\.|\b)' + member + r'\b', src):
            continue
        for df, t in where:
            ambiguous = everywhere.get(member, set()) - {df}
            if df != b and (not ambiguous or t in words):
                reasons.setdefault(df, []).append(member)
    uses[b] = set(reasons)
    why[b] = reasons

if '-v' in sys.argv:
    groups = {}
    for b, u in unit.items():
        groups.setdefault(u, []).append(b)
    for u, group in sorted(groups.items()):
        if len(group) > 1: print('unit:', ', '.join(sorted(group)))
    for b in sorted(uses):
        print(b, '->', ', '.join(f'{d} ({" ".join(sorted(why[b][d]))})' for d in sorted(uses[b])))

# The graph of units: a use between two files of one unit is none.
unit_uses = {}
for b in uses:
    unit_uses.setdefault(unit[b], set()).update(unit[d] for d in uses[b] if unit[d] != unit[b])
circ = [(a, b) for a in unit_uses for b in unit_uses[a] if a in unit_uses.get(b, ()) and a < b]
print('two-file circles:', circ or 'none')
# longer cycles via SCC
idx, low, st, on, sccs, c = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(10000)


def sc(v):
    idx[v] = low[v] = c[0]; c[0] += 1; st.append(v); on.add(v)
    for w in unit_uses[v]:
        if w not in idx:
            sc(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], idx[w])
    if low[v] == idx[v]:
        comp = []
        while True:
            w = st.pop(); on.discard(w); comp.append(w)
            if w == v: break
        if len(comp) > 1: sccs.append(sorted(comp))


for v in unit_uses:
    if v not in idx: sc(v)
print('strongly connected groups (cycles of any length):', sccs or 'none')
core = [b for b in uses if b.startswith('CalcCore')]
print('core files using CalcCLI files:',
      [(b, sorted(x for x in uses[b] if x.startswith('CalcCLI'))) for b in core
       if any(x.startswith('CalcCLI') for x in uses[b])] or 'none')
