#!/usr/bin/env bash
# Fuzzes the line interpreter and the key-text parser with libFuzzer (Sources/calc-fuzz).
#
#   bash Scripts/fuzz.sh [SECONDS] [libFuzzer options...]    # default: 60 seconds
#
# Builds calc-fuzz with -sanitize=fuzzer into .build/fuzz, then runs it on the corpus in
# .build/fuzz/corpus (kept between runs), seeded with Examples/*.calc. A failing input is saved
# as .build/fuzz/crash-* and printed in base64; replay it with `swift run calc-fuzz FILE`.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true

swift build -c release --product calc-fuzz --build-path .build/fuzz \
  -Xswiftc -sanitize=fuzzer -Xswiftc -DCALC_FUZZ -Xlinker --allow-multiple-definition
mkdir -p .build/fuzz/corpus
cp Examples/*.calc .build/fuzz/corpus/
cd .build/fuzz
# Swift's own backtracer would catch the trap first, and libFuzzer would write no crash file.
status=0
SWIFT_BACKTRACE=enable=no ./release/calc-fuzz -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  "$@" corpus || status=$?
if [ "$status" -ne 0 ]; then
  # The failing input, so that a log (CI's) is enough to replay it: `base64 -d > crash`.
  for file in crash-* leak-* timeout-* oom-*; do
    [ -f "$file" ] || continue
    echo "fuzz: $file ($(wc -c <"$file") bytes), base64:"
    base64 "$file"
  done
fi
exit "$status"
