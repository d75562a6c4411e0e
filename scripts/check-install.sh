#!/usr/bin/env bash
# Installs into a temporary prefix and checks what a user without a Swift toolchain gets:
# the binaries load no library from the toolchain, run with a bare environment and a PATH
# without it, and the completions and manual pages load. Run by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="$(mktemp -d)"
trap 'rm -rf "$prefix"' EXIT
scripts/install.sh --prefix "$prefix"

toolchain="$(dirname "$(dirname "$(command -v swift)")")"
failed=0
for tool in regscope regctl; do
  binary="$prefix/bin/$tool"
  if ldd "$binary" | grep -F "$toolchain"; then
    echo "check-install: $tool loads a library from the toolchain ($toolchain)" >&2
    failed=1
  fi
  if ldd "$binary" | grep -i "not found"; then
    echo "check-install: $tool needs a library that is not installed" >&2
    failed=1
  fi
  # A bare environment: no LD_LIBRARY_PATH, no toolchain on PATH.
  version="$(env -i PATH=/usr/bin:/bin HOME="$prefix" "$binary" --version)"
  case "$version" in
    *"8.x, 9.x and 10.x"*) echo "$tool --version: $version" ;;
    *) echo "check-install: $tool --version said: $version" >&2; failed=1 ;;
  esac
  env -i PATH=/usr/bin:/bin HOME="$prefix" "$binary" --help >/dev/null
  bash -n "$prefix/share/bash-completion/completions/$tool"
  zsh -n "$prefix/share/zsh/site-functions/_$tool"
  grep -q "^complete -c '$tool'" "$prefix/share/fish/vendor_completions.d/$tool.fish"
  warnings="$(man -l "$prefix/share/man/man1/$tool.1" 2>&1 >/dev/null || true)"
  if [ -n "$warnings" ] || ! man -l "$prefix/share/man/man1/$tool.1" 2>/dev/null | grep -q "$tool"; then
    echo "check-install: the manual page of $tool does not load cleanly: $warnings" >&2
    failed=1
  fi
  # The page reads as --help does: its EXAMPLES are the help's, and its EXIT STATUS the help's.
  page="$prefix/share/man/man1/$tool.1"
  help_examples="$("$binary" --help | sed -n '/^EXAMPLES:/,/^$/p' | grep '^  [a-z]' | sed 's/^ *//')"
  page_examples="$(sed -n '/^\.Sh EXAMPLES/,/^\.Ed/p' "$page" | grep -v '^\.')"
  if [ -z "$help_examples" ] || [ "$help_examples" != "$page_examples" ] \
    || ! grep -q '^64   a wrong option' "$page"; then
    echo "check-install: the manual page of $tool has not the examples and exit statuses of its --help" >&2
    failed=1
  fi
done
# A headless run end to end, with nothing from the toolchain.
env -i PATH=/usr/bin:/bin HOME="$prefix" "$prefix/bin/regctl" run --quiet throttle-coalesces
du -h "$prefix/bin/regscope" "$prefix/bin/regctl"
[ "$failed" -eq 0 ] && echo "check-install: installed binaries run without the toolchain; completions and manual pages load"
exit "$failed"
