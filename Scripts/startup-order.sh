#!/usr/bin/env bash
# Writes Scripts/startup-order.txt: the functions `calc -k 12+3=` runs, one symbol a line, sorted.
# `make` links with lld and `--symbol-ordering-file` so that they lie together at the start of
# .text: a start then faults in a few neighbouring pages of the binary instead of pages spread
# over 12 MB (peak memory 6.3 -> 4.5 MB; Documentation/Performance.md). A stale list costs only
# that saving: a name no longer in the binary is skipped, a new function is left where it was.
#
#   make && bash Scripts/startup-order.sh .build/release/calc
#
# Needs valgrind. BINARY must have its symbols (not the stripped installed copy).
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/calc}
output=$(mktemp)
trap 'rm -f "$output"' EXIT
valgrind --tool=callgrind --demangle=no --callgrind-out-file="$output" "$binary" -k 12+3= >/dev/null 2>&1
# A function's name follows its first "fn=(id)" or "cfn=(id)"; "'2" marks a recursion level.
grep -hE '^c?fn=\([0-9]+\) ' "$output" | sed -E "s/^c?fn=\([0-9]+\) //; s/'[0-9]+\$//" |
  grep -vE '^(\(below main\)|0x[0-9a-f]+)$' | LC_ALL=C sort -u > Scripts/startup-order.txt
echo "startup-order: $(wc -l < Scripts/startup-order.txt) functions"
