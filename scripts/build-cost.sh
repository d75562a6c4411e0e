#!/usr/bin/env bash
# What a clean debug build costs, and which package each CPU-second goes to: the first build a
# user meets (`swift run regscope` on a fresh clone), then the rest of the package.
#
#   git clone REPO DIR && scripts/build-cost.sh DIR [PRODUCT]     (PRODUCT: regscope)
#
# Each compiler process (clang for C, swift-frontend for Swift) runs under /usr/bin/time,
# through wrappers SwiftPM is pointed at (CC, SWIFT_DRIVER_*_EXEC), and its CPU time is charged
# to the target it compiles, the target to the package whose sources it reads. CPU time, not
# wall time: it holds whatever else the machine runs. Builds run under nice -n 19.
set -euo pipefail
clone="$(cd "${1:?usage: $0 FRESH_CLONE_DIR [PRODUCT]}" && pwd)"
product="${2:-regscope}"
[ ! -e "$clone/.build" ] || { echo "build-cost.sh: $clone/.build exists: use a fresh clone" >&2; exit 2; }
toolchain="$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The wrappers sit in a copy of the toolchain's layout, so the driver still finds its libraries.
mkdir -p "$work/usr/bin"
ln -s "$toolchain/lib" "$work/usr/lib"
ln -s "$toolchain/share" "$work/usr/share"
for tool in clang swift-frontend; do
  cat >"$work/usr/bin/$tool" <<EOF
#!/usr/bin/env bash
# The target: -module-name for Swift, else the X.build folder of the object written.
args=("\$@")
for a in "\$@"; do
  case "\$a" in @*) [ -f "\${a#@}" ] && mapfile -t more <"\${a#@}" && args+=("\${more[@]}") ;; esac
done
target=""; prev=""
for a in "\${args[@]}"; do
  [ "\$prev" = "-module-name" ] && target="\$a"
  if [ -z "\$target" ] && [ "\$prev" = "-o" ]; then
    case "\$a" in */*.build/*) t="\${a%.build/*}"; target="\${t##*/}" ;; *) target="(link \${a##*/})" ;; esac
  fi
  prev="\$a"
done
times="\$(mktemp)"
/usr/bin/time -f "%U %S" -o "\$times" "$toolchain/bin/$tool" "\$@"
status=\$?
echo "\${target:-(other)} \$(tail -1 "\$times")" >>"\$BUILD_COST_LOG"
rm -f "\$times"
exit \$status
EOF
  chmod +x "$work/usr/bin/$tool"
done

cd "$clone"
cpu() { awk '/User time/ {u = $4} /System time/ {s = $4} END {printf "%.0f", u + s}' "$1"; }
/usr/bin/time -v -o "$work/resolve.time" swift package resolve >/dev/null
export CC="$work/usr/bin/clang" SWIFT_DRIVER_CLANG_EXEC="$work/usr/bin/clang"
export SWIFT_DRIVER_SWIFT_FRONTEND_EXEC="$work/usr/bin/swift-frontend"
export BUILD_COST_LOG="$work/compilers.log"
/usr/bin/time -v -o "$work/first.time" nice -n 19 swift build --product "$product" >"$work/first.log" 2>&1 \
  || { tail -20 "$work/first.log" >&2; exit 1; }
/usr/bin/time -v -o "$work/rest.time" nice -n 19 swift build >"$work/rest.log" 2>&1 \
  || { tail -20 "$work/rest.log" >&2; exit 1; }
echo "resolve: $(cpu "$work/resolve.time") CPU-s ($(grep -o '[0-9:.]*$' <(grep Elapsed "$work/resolve.time")) wall, network included)"
echo "swift build --product $product (what swift run $product builds): $(cpu "$work/first.time") CPU-s"
echo "swift build, the rest of the package: $(cpu "$work/rest.time") CPU-s"

# Each target's package: where the sources its build folder names live.
python3 - "$clone/.build/debug" "$BUILD_COST_LOG" <<'EOF'
import collections, glob, os, re, sys
build, log = sys.argv[1], sys.argv[2]
def package(target):
    folder = os.path.join(build, target + ".build")
    files = [os.path.join(folder, "output-file-map.json")] + glob.glob(folder + "/**/*.d", recursive=True)[:1]
    for name in files:
        if os.path.exists(name):
            found = re.search(r"/checkouts/([^/]+)/", open(name, errors="replace").read(20000))
            return found.group(1) if found else "RegScope itself"
    return "links, manifests, tool queries"
cost = collections.Counter()
for line in open(log):
    target, user, system = line.rsplit(maxsplit=2)
    cost[package(target)] += float(user) + float(system)
print("compilers: %.0f CPU-s, by package:" % sum(cost.values()))
for name, seconds in cost.most_common():
    print("  %6.1f  %s" % (seconds, name))
EOF
