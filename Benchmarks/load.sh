#!/usr/bin/env bash
# The local server's load figure: registrations per second that `regctl serve` takes, beside a
# bare Hummingbird route on the same machine in the same run (issue 3, item 7).
#   bash Benchmarks/load.sh [seconds] [connections]
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
script=$(mktemp --suffix=.lua)
body=$(python3 -c 'import json,sys; print(json.dumps(open("Tests/Fixtures/seed000-registration.json").read()))')
cat >"$script" <<LUA
wrk.method = "POST"
wrk.body = $body
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $token"
LUA

pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; rm -f "$script"; }
trap cleanup EXIT

"$bin/bare-route" 18081 & pids+=($!)
"$bin/regctl" serve --quiet --port 18082 --app-id "$app" --access-token "$token" >/dev/null & pids+=($!)
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
bare=$(rate 18081)
server=$(rate 18082)
status=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H "Authorization: Bearer $token" \
  --data-binary @Tests/Fixtures/seed000-registration.json "http://127.0.0.1:18082/device/v1/registration")
echo "bare Hummingbird route:   $bare requests/s"
echo "regctl serve (S1, 201):   $server registrations/s (answer now: $status)"
python3 -c "import sys; print('ratio: %.2f of the bare route' % (float(sys.argv[1]) / float(sys.argv[2])))" "$server" "$bare"
