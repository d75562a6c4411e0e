#!/usr/bin/env bash
# libFuzzer over every parser of outside input (scenario, config, command, wire, fault, theme).
#   bash Benchmarks/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
# Builds regscope-fuzz with -sanitize=fuzzer,address into .build-fuzz (the first build takes
# several minutes), writes the seed corpus (the built-ins, the README's examples, hostile
# values), then runs each target. A crash leaves its input in .build-fuzz/crashes.
# Where libFuzzer cannot be built, `swift run regscope-fuzz all --seconds 60` runs the same
# targets under a seeded mutation runner.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(scenario config command wire fault theme)

swift build --scratch-path .build-fuzz --product regscope-fuzz \
  -Xswiftc -DFUZZING -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld
binary="$(swift build --scratch-path .build-fuzz --show-bin-path)/regscope-fuzz"

# The corpus comes from the plain runner, which knows the seeds.
swift build --product regscope-fuzz
"$(swift build --show-bin-path)/regscope-fuzz" all --write-corpus .build-fuzz/corpus

for target in "${targets[@]}"; do
  echo "== $target ($seconds s)"
  mkdir -p ".build-fuzz/corpus/$target" ".build-fuzz/crashes"
  REGSCOPE_FUZZ_TARGET="$target" "$binary" -max_total_time="$seconds" -max_len=65536 \
    -artifact_prefix=".build-fuzz/crashes/$target-" -print_final_stats=1 \
    ".build-fuzz/corpus/$target" 2>&1 | grep -E 'stat::number_of_executed_units|ERROR|Done|crash' || true
done
if ls .build-fuzz/crashes/* >/dev/null 2>&1; then
  echo "crashes found:"; ls .build-fuzz/crashes
  exit 1
fi
echo "no crash"
