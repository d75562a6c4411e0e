#!/usr/bin/env bash
# Checks the ncurses shim against Apple's own curses headers, without a Mac: Apple publishes
# its ncurses (apple-oss-distributions/ncurses); this generates curses.h for each tag as
# Apple's build does (xcodescripts/derived_headers.sh: curses.head, the key definitions,
# curses.wide, curses.tail), then
#   1. compiles Sources/CNcursesw/shim.h with clang, -Wall -Werror, against it, and
#   2. type-checks scripts/macos-check/probe.swift (every curses call the inspector makes,
#      with its Swift types) against a module of that header.
# It needs a git copy of that repository (no network here: fetch it once, by any means).
#
#   scripts/macos-shim-check.sh PATH_TO_APPLE_NCURSES_GIT [TAG ...]
#
# Default tags: ncurses-61 (ncurses 5.7, as macOS shipped up to 10.x's SDKs) and ncurses-79
# (6.0, the SDKs since). Exit 0 when every tag passes.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
repo="${1:?usage: $0 PATH_TO_APPLE_NCURSES_GIT [TAG ...]}"
shift
tags=("$@")
[ "${#tags[@]}" -gt 0 ] || tags=(ncurses-61 ncurses-79)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

for tag in "${tags[@]}"; do
  src="$work/$tag/src"
  inc="$work/$tag/include"
  mkdir -p "$src" "$inc"
  git -C "$repo" archive "$tag" ncurses/include | tar -x -C "$src"
  (
    cd "$src/ncurses/include"
    { cat curses.head; AWK=awk sh MKkey_defs.sh Caps; cat curses.wide curses.tail; } >"$inc/curses.h"
    cp unctrl.h ncurses_dll.h "$inc/"
  )
  # Apple's availability attributes (from its SDK's Availability.h), which 6.0's header uses
  # outside `#ifdef __APPLE__`: they mark when a symbol appeared and change no type.
  cat >"$inc/apple-availability.h" <<'STUB'
#define __OSX_AVAILABLE(v)
#define __IOS_AVAILABLE(v)
#define __TVOS_AVAILABLE(v)
#define __WATCHOS_AVAILABLE(v)
STUB
  version="$(awk '/define NCURSES_VERSION_MAJOR/ {a=$3} /define NCURSES_VERSION_MINOR/ {b=$3} END {print a "." b}' "$inc/curses.h")"

  # 1. The C shim, as Swift's clang importer reads it, with every warning an error.
  printf '#include "shim.h"\nint main(void) { return 0; }\n' >"$work/$tag/main.c"
  clang -fsyntax-only -Wall -Wextra -Werror -Wno-unused-function -DREGSCOPE_SYSTEM_CURSES \
    -include "$inc/apple-availability.h" -I "$inc" -I "$root/Sources/CNcursesw" "$work/$tag/main.c"

  # 2. The Swift side: a module of the shim over this header, and the probe type-checked on it.
  mod="$work/$tag/module"
  mkdir -p "$mod"
  cp "$root/Sources/CNcursesw/shim.h" "$mod/"
  printf '#include "%s"\n#include "shim.h"\n' "$inc/apple-availability.h" >"$mod/module-shim.h"
  printf 'module CNcursesw [system] {\n  header "module-shim.h"\n  export *\n}\n' \
    >"$mod/module.modulemap"
  swiftc -typecheck -swift-version 6 -I "$mod" -Xcc -DREGSCOPE_SYSTEM_CURSES -Xcc -I"$inc" \
    "$here/macos-check/probe.swift"
  echo "$tag (ncurses $version): shim.h compiles, every call the inspector makes type-checks"
done
