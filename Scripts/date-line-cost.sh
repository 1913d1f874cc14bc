#!/usr/bin/env bash
# What a date line costs the engine (issue 50, SPEC §13): instructions a line of `DateLine(_:in:)`
# in an optimized build, counted by callgrind as the difference between 3,000 and 1,000 runs of
# the same line (so that start-up and the loop's set-up cancel out).
#
# With --long: the time and peak memory (`/usr/bin/time`) of 4 MB lines — 400,000 durations
# added, 400,000 offsets, and 4,000,000 minus signs after a complete line (rejected).
#
# Usage: Scripts/date-line-cost.sh [--long | 'LINE' …]   (needs swiftc, and valgrind or
# /usr/bin/time; builds in a temporary folder from Sources/CalcDecimal and
# Sources/CalculatorEngine, touching nothing else)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
swiftc -O -wmo -parse-as-library -emit-module -emit-library -static -module-name CalcDecimal \
  "$root"/Sources/CalcDecimal/*.swift -o libCalcDecimal.a
swiftc -O -wmo -parse-as-library -emit-module -emit-library -static -module-name CalculatorEngine \
  -I . "$root"/Sources/CalculatorEngine/*.swift -o libCalculatorEngine.a
cat > main.swift <<'SWIFT'
import CalculatorEngine
import Glibc

let context = DateLine.Context(today: CivilDate(year: 2026, month: 12, day: 1)!)
if CommandLine.arguments[1] == "--long" {
  let text: String
  switch CommandLine.arguments[2] {
  case "durations": text = "0:00:01" + String(repeating: " + 0:00:01", count: 400_000)
  case "offsets": text = "1601-01-01" + String(repeating: " + 1d     ", count: 400_000)
  default: text = "(1:00)" + String(repeating: "-", count: 4_000_000)
  }
  let shown = (try? DateLine(text, in: context).value.text(in: .posix)) ?? "rejected"
  print(CommandLine.arguments[2], text.utf8.count, "bytes:", shown)
  exit(0)
}
let runs = Int(CommandLine.arguments[1])!
let line = CommandLine.arguments[2]
var sink = 0
for _ in 0..<runs { sink &+= try! DateLine(line, in: context).recordedText.utf8.count }
print(sink)
SWIFT
swiftc -O -I . main.swift -L . -lCalculatorEngine -lCalcDecimal -o cost
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null ./cost "$1" "$2" 2>&1 |
    awk '/refs:/ { gsub(",", "", $4); print $4 }'
}
if [ "${1:-}" = --long ]; then
  for kind in durations offsets minus; do
    /usr/bin/time -f "  %e s, %M KB at most" ./cost --long "$kind"
  done
  exit 0
fi
if [ $# -eq 0 ]; then
  set -- "2019-07-31 to 2019-12-30" "2026-12-01 - 10d" "today + 1y 2m 3w 4d" "1:30+0:45:30" \
    "(1:15+0:45)*3" "8:30 in h"
fi
for line in "$@"; do
  few=$(count 1000 "$line")
  many=$(count 3000 "$line")
  printf '%-28s %6d instructions a line\n' "$line" $(((many - few) / 2000))
done
