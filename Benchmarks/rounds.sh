#!/usr/bin/env bash
# Side by side under the fleet load (issue 28): in each round the bare route, then each server
# binary given, 6 s each (after 2 s to warm), with `wrk -t1 -c32` and Benchmarks/fleet.lua.
# Prints each run's rate and the server's CPU a request, then each binary's median ratio to its
# round's bare route: on a machine whose speed moves 15% from one run to the next, a change is
# judged by medians of rounds, not by one run.
#   bash Benchmarks/rounds.sh ROUNDS BIN [BIN...]     e.g. 4 /tmp/regctl-before .build/release/regctl
# Each BIN runs as `BIN serve --quiet --har FILE` with the scripts' app and token.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: bash Benchmarks/rounds.sh ROUNDS BIN [BIN...]" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is not installed: apt-get install wrk" >&2; exit 2; }
rounds=$1; shift
swift build -c release --product bare-route >/dev/null 2>&1
bare="$(swift build -c release --show-bin-path)/bare-route"
work=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
ticks=$(getconf CLK_TCK)

run() {  # label port command... -> "label rate cpu_us_per_request"
  local label=$1 port=$2; shift 2
  "$@" >/dev/null 2>&1 & pid=$!
  for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
  local url="http://127.0.0.1:$port/device/v1/registration"
  wrk -t1 -c32 -d2s -s Benchmarks/fleet.lua "$url" >/dev/null
  local before after out
  before=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  out=$(wrk -t1 -c32 -d6s -s Benchmarks/fleet.lua "$url")
  after=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
  echo "$out" | awk -v l="$label" -v b="$before" -v a="$after" -v t="$ticks" '
    /requests in/ {n = $1} /Requests\/sec/ {r = $2}
    END {printf "%s %s %.1f\n", l, r, (a - b) / t * 1e6 / n}'
}

for round in $(seq 1 "$rounds"); do
  run bare 18191 "$bare" 18191 | tee -a "$work/runs"
  index=0
  for bin in "$@"; do
    index=$((index + 1))
    rm -f "$work/capture.har"
    run "$index:$(basename "$bin")" 18192 "$bin" serve --quiet --port 18192 \
      --app-id 995k5k1j-162l-4n5m-j4lo-jl5mmnk14n47 --access-token load-token-0123456789 \
      --har "$work/capture.har" | tee -a "$work/runs"
  done
done
python3 - "$work/runs" <<'PY'
import statistics, sys
rounds, current = [], None
for line in open(sys.argv[1]):
    label, rate, cpu = line.split()
    if label == "bare":
        current = {}
        rounds.append((float(rate), current))
    else:
        current[label] = (float(rate), float(cpu))
for label in rounds[0][1]:
    ratios = [runs[label][0] / bare for bare, runs in rounds]
    cpu = statistics.median(runs[label][1] for _, runs in rounds)
    print("%-24s median ratio %.3f (%s), median CPU %.1f us a registration"
          % (label, statistics.median(ratios), " ".join("%.2f" % r for r in ratios), cpu))
PY
