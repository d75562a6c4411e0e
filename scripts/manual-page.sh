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
page="$out/$(basename "$tool").1"
# mdoc warns of every empty line (a paragraph break in the help): .Pp is its way of saying it.
# The help's EXAMPLES and EXIT STATUS paragraphs (the top command's discussion) become the
# page's own sections, the latter in place of the generator's "exits 0 on success".
awk '
  function flush_pp() { if (pp) { print ".Pp"; pp = 0 } }
  function block(lines, n,   i) {
    print ".Bd -literal -offset indent"
    for (i = 1; i <= n; i++) print lines[i]
    print ".Ed"
  }
  /^\.Sh DESCRIPTION/ { top = 1; print; next }
  top && /^\.Bl/ { top = 0; into = ""; pp = 0 }
  top && $0 == "EXAMPLES:" { into = "examples"; pp = 0; next }
  top && $0 == "EXIT STATUS:" { into = "exit"; pp = 0; next }
  top && ($0 == "" || $0 == ".Pp") { if (into != "") into = ""; else pp = 1; next }
  top && into == "examples" { examples[++ne] = substr($0, 3); next }
  top && into == "exit" { exits[++nx] = substr($0, 3); next }
  top { flush_pp(); print; next }
  /^\.Ex -std/ && nx > 0 { block(exits, nx); if (ne > 0) { print ".Sh EXAMPLES"; block(examples, ne) }; next }
  /^\.Ex -std/ && ne > 0 { print; print ".Sh EXAMPLES"; block(examples, ne); next }
  /^$/ { print ".Pp"; next }
  { print }
' "$page" >"$page.new" && mv "$page.new" "$page"
# A tool whose only subcommand is ArgumentParser's own `help` (regscope) takes none, as its
# --help says: the page neither lists it nor puts "subcommand" in the synopsis.
if [ "$(grep -c '^\.It Em ' "$page")" = 1 ] && grep -q '^\.It Em help$' "$page"; then
  sed -i.bak -e '/^\.Ar subcommand$/d' -e '/^\.It Em help$/,/^\.El$/d' "$page" && rm -f "$page.bak"
fi
