#!/usr/bin/env bash
# A receiver under a flood (issue 28, item 3): `regscope --receive` open in tmux while 50 new
# devices register every second for 60 s (Android 10.0 shaped, over loopback). Reports the
# inspector's CPU over the flood, its resident memory at the end, and how long a key takes to
# change the screen while the flood runs (the median and the worst of 20 presses, read with
# tmux capture-pane, whose own cost is in the figure).
#   bash Benchmarks/flood.sh [devices-per-second] [seconds]
# Needs tmux and python3. Release build; only loopback; everything it starts it stops.
set -euo pipefail
cd "$(dirname "$0")/.."
rate=${1:-50}
seconds=${2:-60}
port=18777
session=regscope-flood
command -v tmux >/dev/null || { echo "tmux is not installed: apt-get install tmux" >&2; exit 2; }
swift build -c release --product regscope >/dev/null 2>&1
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
cleanup() { tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

tmux new-session -d -s "$session" -x 120 -y 40 "$bin/regscope --receive --port $port"
for _ in $(seq 1 100); do
  curl -s -o /dev/null "http://127.0.0.1:$port/openapi.json" && break
  sleep 0.1
done
pid=$(pgrep -f "^$bin/regscope --receive --port $port" | head -1)
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }

python3 - "$port" "$rate" "$seconds" >"$work/load.txt" <<'PY' &
import http.client, json, sys, time
port, rate, seconds = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
app = "0e7b5a1d-9c3f-4b2e-8a6d-5f1c2e3d4a5b"
headers = {
    "Content-Type": "application/json; charset=utf-8",
    "Authorization": "Bearer demo-access-token-012345",
    "User-Agent": "MarketingCloudSdk/10.0.0 (Android 14; en_US; Google/Pixel 8) com.example.app/1.0",
}
connection = http.client.HTTPConnection("127.0.0.1", port)
sent = failed = 0
start = time.monotonic()
for second in range(seconds):
    for index in range(rate):
        device = f"FLOOD-{second}-{index}"
        body = {"deviceID": device, "etAppId": app, "platform": "Android", "hwid": "Google Pixel 8",
                "sdk_Version": "10.0.0", "platform_Version": "14", "app_Version": "1.0",
                "locale": "en_US", "timeZone": "0", "push_Enabled": True, "dST": False,
                "tags": ["ALL", "Android"], "attributes": [{"key": "Tier", "value": "gold"}],
                "uuid": device, "registrationDateUtc": "2026-11-25T10:00:00.000Z"}
        connection.request("POST", "/device/v1/registration", json.dumps(body), headers)
        response = connection.getresponse()
        response.read()
        sent += 1
        failed += response.status != 201
    pause = start + second + 1 - time.monotonic()
    if pause > 0:
        time.sleep(pause)
print(sent, failed)
PY
load=$!
before=$(ticks)
sleep 5  # the flood under way
latencies=()
for press in $(seq 1 20); do
  key=$([ $((press % 2)) -eq 0 ] && echo "?" || echo "Escape")
  screen=$(tmux capture-pane -p -t "$session")
  start=$(date +%s%N)
  tmux send-keys -t "$session" "$key"
  while [ "$(tmux capture-pane -p -t "$session")" = "$screen" ]; do :; done
  latencies+=($(( ($(date +%s%N) - start) / 1000000 )))
  sleep 2
done
wait "$load"
after=$(ticks)
rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
read -r sent failed <"$work/load.txt"
sorted=$(printf '%s\n' "${latencies[@]}" | sort -n)
median=$(echo "$sorted" | sed -n "$(( (${#latencies[@]} + 1) / 2 ))p")
worst=$(echo "$sorted" | tail -1)
hz=$(getconf CLK_TCK)
echo "flood: $sent registrations in ${seconds} s ($failed not 201), $rate new devices a second"
echo "regscope --receive: CPU $(python3 -c "print('%.1f' % (100 * ($after - $before) / $hz / $seconds))")% of a core over the flood, RSS $((rss / 1024)) MB at the end"
echo "key to screen during the flood: median ${median} ms, worst ${worst} ms (20 presses)"
