#!/usr/bin/env bash
# The engine's public API (issue 47): counts the declarations marked `public` or `open` in
# CalcDecimal and CalculatorEngine, and lists those without a doc comment.
#
#   Scripts/public-api.sh             the count per module and in all, then each undocumented one
#   Scripts/public-api.sh --list      every public declaration, file:line and text
#   Scripts/public-api.sh --example   also typechecks Examples/PaperTape against the debug build's
#                                     modules as a program outside the package would see them
#                                     (without -package-name: `package` declarations are hidden);
#                                     run `swift build --build-tests` first
#
# A declaration counts once, on the line that carries the keyword (after its attributes); enum
# cases and protocol requirements, public through their type, are not counted. It is documented
# when the nearest line above it that is not an attribute is a `///` comment. Exits 1 when one is
# undocumented (or the example does not typecheck), else 0.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(CalcDecimal CalculatorEngine)
mode=${1:-}

report=$(
  for module in "${modules[@]}"; do
    for file in Sources/"$module"/*.swift; do
      awk -v file="$file" -v module="$module" '
        # The line above, ignoring attribute-only lines (`@inlinable`, `@frozen`, …).
        function documented() { return previous ~ /^[[:space:]]*\/\/\// }
        {
          line = $0
          if (line ~ /^[[:space:]]*(@[A-Za-z_]+(\([^)]*\))?[[:space:]]+)*(public|open)[[:space:]]/ \
              && line !~ /^[[:space:]]*(public|open)[[:space:]]+import[[:space:]]/) {
            text = line
            sub(/^[[:space:]]+/, "", text)
            printf "%s\t%s:%d\t%s\t%s\n", module, file, NR, (documented() ? "doc" : "undocumented"), text
          }
          if (line !~ /^[[:space:]]*(@[A-Za-z_]+(\([^)]*\))?[[:space:]]*)+$/) previous = line
        }' "$file"
    done
  done
)

if [ "$mode" = "--list" ]; then
  printf '%s\n' "$report" | cut -f2,4
  exit 0
fi

status=0
total=0
for module in "${modules[@]}"; do
  count=$(printf '%s\n' "$report" | awk -F'\t' -v m="$module" '$1 == m' | grep -c . || true)
  echo "$module: $count public declarations"
  total=$((total + count))
done
echo "total: $total public declarations"
undocumented=$(printf '%s\n' "$report" | awk -F'\t' '$3 == "undocumented" { print $2 "\t" $4 }')
if [ -n "$undocumented" ]; then
  echo "undocumented: $(printf '%s\n' "$undocumented" | grep -c .)"
  printf '%s\n' "$undocumented"
  status=1
else
  echo "undocumented: 0"
fi

if [ "$mode" = "--example" ]; then
  modules_dir=.build/debug/Modules
  [ -d "$modules_dir" ] || modules_dir=.build/debug
  if swiftc -typecheck -I "$modules_dir" Examples/PaperTape/*.swift; then
    echo "Examples/PaperTape: typechecks against the public API alone"
  else
    echo "Examples/PaperTape: needs more than the public API (above)"
    status=1
  fi
fi
exit $status
