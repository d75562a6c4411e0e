#!/usr/bin/env bash
# The bounded server's figures: resident memory of `regctl serve` after N registrations, and
# how long /api/stats and a page of /api/registrations take then.
#   bash Benchmarks/memory.sh [registrations] [processing-delay]
# Two runs: every registration from one device (the seed example), and each from a device of
# its own (the server keeps every device, as S3/S4 need). Needs wrk; loopback only.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-100000}
delay=${2:-5m}
command -v wrk >/dev/null || { echo "wrk is not installed: apt-get install wrk" >&2; exit 2; }
swift build -c release --product regctl >/dev/null 2>&1
bin=$(swift build -c release --show-bin-path)
token=load-token-0123456789
app=995k5k1j-162l-4n5m-j4lo-jl5mmnk14n47
port=18083
body=$(python3 -c 'import json; print(json.dumps(open("Tests/Fixtures/seed000-registration.json").read()))')
script=$(mktemp --suffix=.lua)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -f "$script"; }
trap cleanup EXIT

run() {  # distinct(0|1)
  cat >"$script" <<LUA
local body = $body
local sent = 0
local distinct = $1
request = function()
  sent = sent + 1
  local b = body
  if distinct == 1 then b = body:gsub("1EB8C21D%-CA72%-41AC%-930D%-CEC9A311D699", "DEVICE-" .. sent) end
  return wrk.format("POST", "/device/v1/registration",
    {["Content-Type"] = "application/json", ["Authorization"] = "Bearer $token"}, b)
end
LUA
  REGSCOPE_ACCESS_TOKEN=$token "$bin/regctl" serve --quiet --port $port --app-id "$app" \
    --processing-delay "$delay" >/dev/null &
  pid=$!
  for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/api/stats" && break; sleep 0.1; done
  local before; before=$(ps -o rss= -p "$pid")
  # wrk has no request budget: it runs until the server has received COUNT, then is stopped.
  wrk -t1 -c16 -d3600s -s "$script" "http://127.0.0.1:$port/" >/dev/null &
  local load=$! received=0
  while [ "$received" -lt "$count" ]; do
    sleep 1
    received=$(curl -s "http://127.0.0.1:$port/api/stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["received"])')
  done
  kill "$load"; wait "$load" 2>/dev/null || true
  local stats page
  stats=$(for _ in $(seq 1 21); do curl -s -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$port/api/stats"; done | sort -n | sed -n 11p)
  page=$(for _ in $(seq 1 21); do curl -s -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$port/api/registrations?limit=100"; done | sort -n | sed -n 11p)
  local after; after=$(ps -o rss= -p "$pid")
  echo "$([ "$1" = 1 ] && echo "distinct devices" || echo "one device      "): $received registrations, delay $delay: RSS $((before / 1024)) MB before, $((after / 1024)) MB after; median /api/stats $(python3 -c "print(round($stats*1000,1))") ms, /api/registrations?limit=100 $(python3 -c "print(round($page*1000,1))") ms"
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
}
run 0
run 1
