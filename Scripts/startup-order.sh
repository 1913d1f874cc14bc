#!/usr/bin/env bash
# Writes Scripts/startup-order.txt: a name for each input section that `calc -k 12+3=` touches,
# one a line. `make` links with lld and `--symbol-ordering-file`, which puts the sections holding
# them first in their output sections (.text, .data.rel.ro, .data, .rodata, .bss), in the order
# listed: a start then faults in a few neighbouring pages of the binary instead of pages spread
# over 17 MB (Documentation/Performance.md). A stale list costs only that saving: a name no longer
# in the binary is skipped, a new section is left where it was.
#
#   make && bash Scripts/startup-order.sh     # links .build/release/calc again in the new order
#
# How: links make's build once more with a link map, runs it under valgrind's lackey (every
# instruction and data address, mapped to the input sections of the map) and natively under gdb
# (the string functions' variants glibc picks for this CPU, which valgrind's CPU is not), and
# writes the list (the shape of .text is explained where it is written, below). Each section is
# named by a symbol defined in it alone, or in small sections only: a local name like `$sSqwxx`,
# defined in several modules, would move all of them. The counts, and the sections that have no
# such name, go to standard error.
#
# Needs valgrind, python3 and readelf; gdb if present. Run it after `make` (it reuses make's flags).
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# make's build command with a link map: only the link runs again.
build=$(make -s -n -B build)
eval "${build/ --product calc/ -Xlinker -Map=$work/calc.map -Xlinker --no-demangle --product calc}" \
  >/dev/null
binary=.build/release/calc
# valgrind runs a copy without debug information (the same addresses and symbols): valgrind 3.19
# cannot read the DWARF 5 that clang writes for the C target (Sources/CArguments) and gives up.
strip --strip-debug -o "$work/calc" "$binary"
valgrind --tool=lackey --trace-mem=yes --log-file="$work/lackey" "$work/calc" -k 12+3= \
  >/dev/null 2>&1
if command -v gdb >/dev/null; then
  # After a start, each IRELATIVE slot holds the variant glibc chose for this machine.
  readelf -rW "$binary" | awk '/R_X86_64_IRELATIVE/ { print "0x" $1 }' >"$work/irelative"
  gdb -q -batch -ex 'catch syscall exit_group' -ex 'run -k 12+3= </dev/null >/dev/null' \
    -ex "python
import gdb
for slot in open('$work/irelative'):
    value = int(gdb.parse_and_eval('*(unsigned long *)' + slot.strip()))
    print('SLOT %s 0x%x' % (slot.strip(), value))
" "$work/calc" >"$work/slots" 2>/dev/null || true
  # Which of those variants a native start calls; and what only a native start runs: valgrind
  # gives no vDSO, so glibc's start does not set up the vDSO's link map under it
  # (`_dl_new_object`, `_dl_lookup_symbol_x`, … in libc.a's dl-*.o, every function of which the
  # link map lists). A breakpoint on each, from the first instruction; each one hit counts as
  # called.
  grep '^SLOT' "$work/slots" | awk '{ print $3 }' >"$work/targets" || true
  python3 - "$work" <<'PY'
import re, sys
work = sys.argv[1]
inside = False
with open(f"{work}/targets", "a") as out:
    for line in open(f"{work}/calc.map", errors="replace"):
        m = re.match(r"\s*[0-9a-f]+\s+[0-9a-f]+\s+[0-9a-f]+\s+\d+ {9}(\S.*)$", line)
        if m:
            inside = re.search(r"libc\.a\(dl-[a-z_-]+\.o\):\(\.text", m.group(1)) is not None
            continue
        m = re.match(r"\s*([0-9a-f]+)\s+[0-9a-f]+\s+[0-9a-f]+\s+\d+ {17}(\S+)$", line)
        if inside and m and not m.group(2).startswith("."):
            print("0x" + m.group(1), file=out)
PY
  sort -u -o "$work/targets" "$work/targets"
  gdb -q -batch -ex 'starti -k 12+3= </dev/null >/dev/null' -ex "python
import gdb
hits = set()
for target in open('$work/targets'):
    gdb.Breakpoint('*' + target.strip(), temporary=True, internal=True)
gdb.events.stop.connect(lambda event: hits.add(int(gdb.selected_frame().pc())))
while gdb.selected_inferior().pid:
    try:
        gdb.execute('continue', to_string=True)
    except gdb.error:
        break
for hit in sorted(hits):
    print('CALLED 0x%x' % hit)
" "$work/calc" >"$work/called" 2>/dev/null || true
fi
readelf -SW "$binary" >"$work/sections"
python3 - "$work" >Scripts/startup-order.txt <<'PY'
import bisect, collections, re, sys

work = sys.argv[1]
report = open(f"{work}/report", "w")

# The link map: every output section, and in it every input section with its symbols.
outputs = []  # (name, address, size)
inputs = []  # [address, size, output name, input name, [symbols]]
output = None
for line in open(f"{work}/calc.map", errors="replace"):
    m = re.match(r"\s*([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+ (\S.*)$", line)
    if m:
        output = m.group(3)
        outputs.append((output, int(m.group(1), 16), int(m.group(2), 16)))
        continue
    m = re.match(r"\s*([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+(\d+) {9}(\S.*)$", line)
    if m:
        inputs.append(
            [int(m.group(1), 16), int(m.group(2), 16), output, m.group(4), [], int(m.group(3))])
        continue
    m = re.match(r"\s*[0-9a-f]+\s+[0-9a-f]+\s+[0-9a-f]+\s+\d+ {17}(\S.*)$", line)
    if m and inputs:
        inputs[-1][4].append(m.group(1))
# A name in the order file moves every input section that defines it: a local name like
# `$sSqwxx` is defined in several modules, and would pull the regex parser's whole `.text` to the
# front. So a section is named by a name of its own, or else by one whose every definition is in
# a small section (the outlined copies that several of calc's files define alike).
definitions = collections.defaultdict(list)
for section in inputs:
    for name in set(section[4]):
        definitions[name].append(section[1])
placed = sorted((s for s in inputs if s[1] > 0), key=lambda s: s[0])
starts = [s[0] for s in placed]

def section_at(address):
    i = bisect.bisect_right(starts, address) - 1
    if i >= 0 and address < placed[i][0] + placed[i][1]:
        return i
    return None

# What a start touches: lackey's instructions (I) and data (L, S, M), in 64-byte lines.
touched = collections.defaultdict(set)
for line in open(f"{work}/lackey", errors="replace"):
    parts = line.split()
    if len(parts) != 2 or parts[0] not in ("I", "L", "S", "M"):
        continue
    address = int(parts[1].split(",")[0], 16)
    i = section_at(address)
    if i is not None:
        touched[i].add(address >> 6)
# The string functions' variants (`__strlen_evex`, `__memcpy_avx2_unaligned`, …): glibc picks
# one for the CPU, and valgrind's CPU is not the machine's. Where gdb could watch a native start,
# the variants it called count and valgrind's do not.
variant = re.compile(r"^__[a-z0-9]+?_(?:avx|sse|evex|erms)")
try:
    called = [int(m.group(1), 16) for line in open(f"{work}/called")
              for m in [re.match(r"^CALLED 0x([0-9a-f]+)$", line.strip())] if m]
except FileNotFoundError:
    called = []
if called:
    for i in list(touched):
        if placed[i][2] == ".text" and placed[i][4] and all(variant.match(n) for n in placed[i][4]):
            del touched[i]
    for address in called:
        i = section_at(address)
        if i is not None:
            touched[i].update(range(placed[i][0] >> 6, (placed[i][0] + placed[i][1] + 63) >> 6))

def name_for(section):
    names = [n for n in section[4] if not n.startswith(".L")]
    for name in names:
        if len(definitions[name]) == 1:
            return name
    for name in names:
        if all(size < 16 * 1024 for size in definitions[name]):
            return name
    return None

unnamed = []
order = []
def add(sections, label):
    size = 0
    for s in sections:
        name = name_for(s)
        if name is None:
            unnamed.append(s)
            continue
        order.append(name)
        size += s[1]
    print(f"{label}: {len(sections)} sections, {size} bytes", file=report)

# .text: the dense part of a start first (sections mostly run, or small); then cold sections
# that no start touches, as filler; then the sections a start touches only in part (libdispatch's
# queue, the dynamic-loader code of static glibc, the libm objects whose ifunc resolver alone
# runs); then the standard library's one big `.text` (Swift.o), whose public functions have
# sections of their own and are in the dense part. Why this shape: Documentation/Performance.md,
# "Start-up memory toward 1.25× bc" — the page cache maps a large folio whole at the first
# fault in it, so the dense part must stay within the small folios at the start of `.text`,
# and the filler keeps the next large folio untouched.
# The room for the dense part: a file written in one `write` (as `strip -o` writes `.text`) gets
# page-cache folios whose size grows with the alignment of their offset (4 KB, 8 KB, … from the
# section's first page); the dense part must end before the first folio of 256 KB or more.
text_offset = None
for line in open(f"{work}/sections"):
    m = re.match(r"\s*\[\s*\d+\]\s+\.text\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)", line)
    if m:
        text_address, text_offset = int(m.group(1), 16), int(m.group(2), 16)
page = text_offset // 4096
while page & -page < 64 and (page & -page) * 4096 < 2 * 1024 * 1024:
    page += page & -page
end = page * 4096 - 8 * 1024  # 8 KB for what valgrind does not see
text = [i for i in touched if placed[i][2] == ".text"]
big = [i for i in text if placed[i][1] >= 256 * 1024]
density = {i: min(1, len(touched[i]) * 64 / placed[i][1]) for i in text}
candidates = sorted((i for i in text if i not in big), key=lambda i: (placed[i][1] > 1024, -density[i]))
dense, sparse, offset = [], [], text_offset
for i in candidates:
    name = name_for(placed[i])
    align = max(1, placed[i][5])
    # A shared name moves every section that defines it.
    size = sum(definitions[name]) if name else placed[i][1]
    after = (offset + align - 1) // align * align + size
    if name and after <= end and (density[i] >= 0.05 or placed[i][1] <= 1024):
        dense.append(i)
        offset = after
    else:
        sparse.append(i)
print(f"room for the dense text: {end - text_offset} bytes", file=report)
for i in sparse:
    print(f"sparse: {placed[i][1]} bytes, {density[i]:.2f}: {placed[i][3]}", file=report)
sparse.sort(key=lambda i: placed[i][0])
add([placed[i] for i in dense], "dense text")
filler, size = [], 0
for s in sorted((s for i, s in enumerate(placed) if s[2] == ".text" and i not in touched), key=lambda s: -s[1]):
    if size >= 1024 * 1024:
        break
    if name_for(s) and s[1] >= 64 * 1024:
        filler.append(s)
        size += s[1]
add(filler, "filler text")
add([placed[i] for i in sparse], "sparse text")

def place(offset, sections):
    for section in sections:
        align = max(1, section[5])
        offset = (offset + align - 1) // align * align + section[1]
    return offset

# The standard library's `.text` is touched here and there; where it starts decides how many
# 64 KB fault-around windows those places fall in. Cold sections before it move it to the start
# that needs the fewest.
if big and len(big) == 1:
    blob = placed[big[0]]
    lines = sorted({line * 64 - blob[0] for line in touched[big[0]]})
    offset = place(place(offset, filler), [placed[i] for i in sparse])
    delta = text_address - text_offset

    def windows(start):
        start = (start + 15) // 16 * 16 + delta
        return len({(start + line) >> 16 for line in lines})

    chosen = set(id(s) for s in filler) | set(id(placed[i]) for i in touched)
    spare = sorted((s for s in placed if s[2] == ".text" and id(s) not in chosen
                    and s[1] < 16 * 1024 and name_for(s) and s[5] <= 16), key=lambda s: -s[1])
    best = min(range(0, 64 * 1024, 1024), key=lambda pad: (windows(offset + pad), pad))
    padding, size = [], 0
    for section in spare:
        if size + section[1] + 16 <= best:
            padding.append(section)
            size += section[1] + 16
    print(f"standard library text: {windows(offset)} windows at its place, "
          f"{windows(place(offset, padding))} after {place(offset, padding) - offset} bytes "
          f"of cold sections", file=report)
    add(padding, "padding text")
add([placed[i] for i in big], "big text")
# The data a start touches, each output section's touched input sections densest first.
for output_name in (".data.rel.ro", ".data", ".rodata", ".bss", ".tbss", ".tdata"):
    data = [i for i in touched if placed[i][2] == output_name]
    data.sort(key=lambda i: (placed[i][1] >= 32 * 1024, -len(touched[i]) * 64 / placed[i][1]))
    add([placed[i] for i in data], output_name)
for s in unnamed:
    print(f"not orderable (no name of its own): {s[3]} ({s[2]}, {s[1]} bytes)", file=report)
print("\n".join(dict.fromkeys(order)))
PY
cat "$work/report" >&2
# SwiftPM does not link again when only the order file changed.
rm -f "$binary"
eval "$build" >/dev/null
echo "startup-order: $binary linked in the new order"
