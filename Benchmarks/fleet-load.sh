#!/usr/bin/env bash
# The receiving path under a fleet (issue 28): a fresh device per request, each posting a
# registration shaped like Android 10.0's with its User-Agent, against a bare Hummingbird route
# and `regctl serve --har FILE` (the judge and the capture on, as QA runs it), in one run, twice.
#   bash Benchmarks/fleet-load.sh [seconds] [connections]
# Needs wrk (apt-get install wrk). Only loopback is used; every run stops by itself.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
connections=${2:-32}
command -v wrk >/dev/null || { echo "wrk is not installed: apt-get install wrk" >&2; exit 2; }

swift build -c release --product regctl >/dev/null 2>&1
swift build -c release --product bare-route >/dev/null 2>&1
bin=$(swift build -c release --show-bin-path)
token=load-token-0123456789
app=995k5k1j-162l-4n5m-j4lo-jl5mmnk14n47
work=$(mktemp -d)
script=Benchmarks/fleet.lua

pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

"$bin/bare-route" 18081 & pids+=($!)
"$bin/regctl" serve --quiet --port 18082 --app-id "$app" --access-token "$token" \
  --har "$work/capture.har" >/dev/null & pids+=($!)
for port in 18081 18082; do
  for _ in $(seq 1 100); do
    curl -s -o /dev/null -X POST "http://127.0.0.1:$port/device/v1/registration" && break
    sleep 0.1
  done
done

rate() {  # port -> requests/s
  wrk -t1 -c"$connections" -d"${seconds}s" -s "$script" "http://127.0.0.1:$1/device/v1/registration" |
    awk '/Requests\/sec/ {print $2}'
}
for run in 1 2; do
  bare=$(rate 18081)
  server=$(rate 18082)
  echo "run $run: bare route $bare requests/s; regctl serve --har $server registrations/s"
  python3 -c "import sys; print('  ratio: %.2f of the bare route' % (float(sys.argv[1]) / float(sys.argv[2])))" "$server" "$bare"
done
status=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H "Authorization: Bearer $token" \
  -H 'Content-Type: application/json' \
  -d "{\"deviceID\":\"CHECK\",\"etAppId\":\"$app\",\"platform\":\"Android\"}" \
  "http://127.0.0.1:18082/device/v1/registration")
echo "answer now: $status; capture $(du -h "$work/capture.har" | cut -f1)"
