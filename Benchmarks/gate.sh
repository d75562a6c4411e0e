#!/usr/bin/env bash
# The receiving path's instruction gate (issue 28): instructions a registration through the
# path's own work (read and check the body, receive, judge, write the capture's entry,
# process), counted by callgrind in the release build users run (the flags of
# scripts/install.sh, so CI's install reuses the build), which repeats them exactly run to run.
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

# The same flags as scripts/install.sh: a debug build's costs (no inlining, no specialising)
# are not the users', and rewrites for them buy nothing.
release=(-c release)
[ "$(uname -s)" = "Linux" ] && release+=(--static-swift-stdlib -Xlinker -lcurl)
log=$(mktemp)
if ! swift build "${release[@]}" --product regscope-bench >"$log" 2>&1; then
  grep -E "error:" -A3 "$log" >&2 || tail -20 "$log" >&2
  rm -f "$log"
  echo "gate.sh: the release build of regscope-bench failed" >&2
  exit 2
fi
rm -f "$log"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Valgrind cannot read all of the build's debug information; the counts need none.
strip -o "$work/bench" "$(swift build "${release[@]}" --show-bin-path)/regscope-bench"
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
