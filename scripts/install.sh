#!/usr/bin/env bash
# Installs regscope and regctl into a prefix: release binaries with the Swift runtime linked
# in (they run where no Swift toolchain is installed: a QA tester's machine, a CI image),
# shell completions for bash, zsh and fish, and manual pages.
#
#   scripts/install.sh [--prefix DIR]      (default: ~/.local)
#
# DIR/bin gets the tools; DIR/share/bash-completion/completions, DIR/share/zsh/site-functions
# and DIR/share/fish/vendor_completions.d the completions; DIR/share/man/man1 the pages.
# Building needs the toolchain, the ncurses and SQLite development files (README, Set up) and,
# on Linux, libcurl's (apt-get install libcurl4-openssl-dev).
set -euo pipefail
cd "$(dirname "$0")/.."

prefix="$HOME/.local"
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="${2:?--prefix needs a folder}"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown option $1 (--prefix DIR)" >&2; exit 2 ;;
  esac
done

# The Swift runtime linked statically where the platform allows it (Linux); macOS has it in
# the system already.
# Statically linked, Foundation's networking (which the MCP SDK brings in) needs libcurl named
# at link time (libcurl4-openssl-dev); the binary then loads the system's libcurl.
static=()
[ "$(uname -s)" = "Linux" ] && static=(--static-swift-stdlib -Xlinker -lcurl)
echo "building release binaries (a few minutes the first time)..."
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
for product in regscope regctl; do
  if ! swift build -c release "${static[@]}" --product "$product" >"$log" 2>&1; then
    grep -E "error:" -A3 "$log" >&2 || tail -20 "$log" >&2
    echo "install.sh: the build of $product failed" >&2
    exit 1
  fi
done
bin="$(swift build -c release "${static[@]}" --show-bin-path)"

mkdir -p "$prefix/bin" "$prefix/share/bash-completion/completions" \
  "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d" \
  "$prefix/share/man/man1"
for tool in regscope regctl; do
  # Stripped: the debug information is half the binary, and no user of it debugs it.
  install -s -m 0755 "$bin/$tool" "$prefix/bin/$tool"
  # ArgumentParser writes both from the commands themselves, so they never drift from --help.
  "$bin/$tool" --generate-completion-script bash >"$prefix/share/bash-completion/completions/$tool"
  "$bin/$tool" --generate-completion-script zsh >"$prefix/share/zsh/site-functions/_$tool"
  "$bin/$tool" --generate-completion-script fish >"$prefix/share/fish/vendor_completions.d/$tool.fish"
  "$(dirname "$0")/manual-page.sh" "$bin/$tool" "$prefix/share/man/man1"
done

echo "installed regscope and regctl in $prefix/bin ($("$prefix/bin/regctl" --version))"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "add $prefix/bin to PATH to run them by name" ;;
esac
