#!/usr/bin/env bash
# Writes Scripts/startup-order.txt: the symbols `calc -k 12+3=` touches, one a line — the functions
# it runs, then the data it reads or writes. `make` links with lld and `--symbol-ordering-file`,
# which puts the sections holding them first in their output sections (.text, .data.rel.ro,
# .data, .rodata, .bss): a start then faults in a few neighbouring pages of the binary instead of
# pages spread over 12 MB (Documentation/Performance.md). A stale list costs only that saving: a
# name no longer in the binary is skipped, a new one is left where it was.
#
#   make && bash Scripts/startup-order.sh     # links .build/release/calc again in the new order
#
# How: links make's build once more with a link map, runs it under callgrind (the functions) and
# lackey (the data addresses, mapped to symbols with nm), and writes the list:
# - the functions, those in the standard library's one big `.text` (libswiftCore's Swift.o,
#   whose functions have no sections of their own and so move as one block) last, so that the
#   small sections lie together before it;
# - the string functions' variants for every CPU (`__memchr_evex`, `__strlen_avx2`, …): glibc
#   picks one at start-up by the CPU, and valgrind's CPU is not the machine's;
# - then the data symbols.
# A name defined in more than one input section (a local like `$sSqwxx`, in several modules) is
# left out when one of those sections is 32 KB or more: it would pull a whole module's `.text`
# (the regex parser's, Foundation's) to the front.
#
# Needs valgrind, nm and python3. Run it after `make` (it reuses make's build flags).
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# make's build command with a link map: only the link runs again.
build=$(make -s -n -B build)
eval "${build/ --product calc/ -Xlinker -Map=$work/calc.map --product calc}" >/dev/null
binary=.build/release/calc
valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/callgrind" "$binary" -k 12+3= \
  >/dev/null 2>&1
valgrind --tool=lackey --trace-mem=yes --log-file="$work/lackey" "$binary" -k 12+3= >/dev/null 2>&1
nm -n -S --defined-only "$binary" >"$work/nm"
readelf -SW "$binary" >"$work/sections"
python3 - "$work" >Scripts/startup-order.txt <<'PY'
import bisect, re, sys
work = sys.argv[1]

# The functions callgrind saw: a name follows its first "fn=(id)" or "cfn=(id)"; "'2" marks a
# recursion level.
functions = set()
for line in open(f"{work}/callgrind", errors="replace"):
    m = re.match(r"^c?fn=\(\d+\) (.*)$", line.rstrip("\n"))
    if m:
        name = re.sub(r"'\d+$", "", m.group(1))
        if name != "(below main)" and not re.match(r"^0x[0-9a-f]+$", name):
            functions.add(name)

# Every input section of the link map and the symbols in each.
sections_of = {}
current = None
for line in open(f"{work}/calc.map", errors="replace"):
    m = re.match(r"\s*[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+ {9}(\S.*)$", line)
    if m:
        current = (m.group(2), int(m.group(1), 16))
        continue
    m = re.match(r"\s*[0-9a-f]+\s+[0-9a-f]+\s+[0-9a-f]+\s+\d+ {17}(\S.*)$", line)
    if m and current:
        sections_of.setdefault(m.group(1), []).append(current)

def orderable(name):
    sections = sections_of.get(name, [])
    return len(sections) <= 1 or all(size < 32768 for _, size in sections)

def in_stdlib_text(name):
    return any(section.endswith("(Swift.o):(.text)") for section, _ in sections_of.get(name, []))

# The string functions' variants (`__strlen_evex`) of those a start calls (`strlen_ifunc`,
# `__strlen_avx2`).
symbols = []
for line in open(f"{work}/nm"):
    parts = line.split()
    if len(parts) == 4:
        symbols.append((int(parts[0], 16), int(parts[1], 16), parts[2], parts[3]))
    elif len(parts) == 3:
        symbols.append((int(parts[0], 16), 0, parts[1], parts[2]))
variant = re.compile(r"^__([a-z0-9]+?)_(avx|sse|evex)")
called = set()
for name in functions:
    m = re.match(r"^(?:__)?(?:new_)?([a-z0-9]+?)(?:_ifunc|_(?:avx|sse|evex)\w*)$", name)
    if m:
        called.add(m.group(1))
if "memcpy" in called:
    called.add("memmove")
functions |= {n for _, _, _, n in symbols if variant.match(n) and variant.match(n).group(1) in called}

# The data a start touches: lackey's loads, stores and modifies, by symbol.
data_sections = []
for line in open(f"{work}/sections"):
    m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", line)
    if m and int(m.group(2), 16) and m.group(1) != ".text":
        data_sections.append((int(m.group(2), 16), int(m.group(2), 16) + int(m.group(3), 16)))
sized = sorted((a, s, n) for a, s, _, n in symbols if s > 0)
starts = [a for a, _, _ in sized]
data = {}
for line in open(f"{work}/lackey", errors="replace"):
    parts = line.split()
    if len(parts) != 2 or parts[0] not in ("L", "S", "M"):
        continue
    address = int(parts[1].split(",")[0], 16)
    if not any(lo <= address < hi for lo, hi in data_sections):
        continue
    i = bisect.bisect_right(starts, address) - 1
    if i >= 0 and sized[i][0] <= address < sized[i][0] + sized[i][1]:
        data.setdefault(sized[i][2], None)

ordered = sorted(n for n in functions if orderable(n))
ordered = [n for n in ordered if not in_stdlib_text(n)] + [n for n in ordered if in_stdlib_text(n)]
ordered += [n for n in data if orderable(n) and n not in functions]
print("\n".join(ordered))
PY
echo "startup-order: $(wc -l <Scripts/startup-order.txt) symbols"
# SwiftPM does not link again when only the order file changed.
rm -f "$binary"
eval "$build" >/dev/null
echo "startup-order: $binary linked in the new order"
