#!/usr/bin/env bash
# The receiving path's instruction gate (issue 28): instructions a registration through the
# path's own work (read and check the body, receive, judge, write the capture's entry,
# process), counted by callgrind in the debug build, which repeats them exactly run to run.
# The count is the difference between 400 and 200 registrations over 200, so start-up costs
# nothing and a cost that grows with the number of devices shows. Fails (exit 1) when the
# count passes the baseline by more than 15%.
#   bash Benchmarks/gate.sh            # check
#   bash Benchmarks/gate.sh --update   # write the new baseline (say why in the commit)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind is not installed: apt-get install valgrind" >&2; exit 2; }
baseline_file=Benchmarks/receive-path.baseline
margin=15

swift build --product regscope-bench >/dev/null 2>&1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Valgrind cannot read the debug build's debug information; the counts need none.
strip -o "$work/bench" "$(swift build --show-bin-path)/regscope-bench"
count() {  # registrations -> instructions
  SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$work/out.$1" \
    "$work/bench" receive-path "$1" 2>&1 | awk '/Collected :/ {print $4}'
}
small=$(count 200)
large=$(count 400)
per=$(( (large - small) / 200 ))
if [ "${1:-}" = "--update" ]; then
  echo "$per" >"$baseline_file"
  echo "receiving path: $per instructions a registration; written to $baseline_file"
  exit 0
fi
baseline=$(cat "$baseline_file")
limit=$(( baseline + baseline * margin / 100 ))
echo "receiving path: $per instructions a registration (baseline $baseline, limit $limit: +$margin%)"
if [ "$per" -gt "$limit" ]; then
  echo "the receiving path grew past its gate: profile it (docs/testing.md, The gate)," >&2
  echo "or, if the growth is wanted, move the baseline with bash Benchmarks/gate.sh --update" >&2
  exit 1
fi
