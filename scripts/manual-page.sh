#!/usr/bin/env bash
# Writes a tool's manual page (section 1) into a folder, with swift-argument-parser's
# generate-manual, which reads the command's own help (so the page never drifts from
# --help). The generator is built once through the package's GenerateManual plugin.
#
#   scripts/manual-page.sh TOOL_BINARY OUTPUT_FOLDER
set -euo pipefail
tool="${1:?usage: $0 TOOL_BINARY OUTPUT_FOLDER}"
out="${2:?usage: $0 TOOL_BINARY OUTPUT_FOLDER}"
cd "$(dirname "$0")/.."
# SwiftPM names the plugin's tool generate-manual, or generate-manual-tool in newer builds.
find_generator() {
  find .build \( -path '*/debug/generate-manual' -o -path '*/debug/generate-manual-tool' \) \
    -type f -perm -u+x 2>/dev/null | head -1
}
generator="$(find_generator)"
if [ -z "$generator" ]; then
  swift package generate-manual --help >/dev/null 2>&1
  generator="$(find_generator)"
fi
[ -n "$generator" ] || { echo "manual-page.sh: generate-manual could not be built" >&2; exit 1; }
mkdir -p "$out"
"$generator" "$tool" --output-directory "$out" --date "$(date -u +%Y-%m-%d)"
# mdoc warns of every empty line (a paragraph break in the help): .Pp is its way of saying it.
page="$out/$(basename "$tool").1"
sed -i.bak 's/^$/.Pp/' "$page" && rm -f "$page.bak"
