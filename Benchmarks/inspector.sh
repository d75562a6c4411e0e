#!/usr/bin/env bash
# The inspector's figures on this machine (release build, in tmux as a user runs it):
# resident memory on its default, CPU per idle wake, and how fast q, Ctrl-C and SIGTERM give
# the shell back. Usage: bash Benchmarks/inspector.sh [seconds-idle]
set -euo pipefail
cd "$(dirname "$0")/.."
idle=${1:-30}
swift build -c release --product regscope >/dev/null 2>&1
bin="$PWD/.build/release/regscope"
work=$(mktemp -d)
trap 'tmux -L regscope-bench kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
t() { tmux -L regscope-bench "$@"; }

start() { # a fresh state each time, so each start sends its initial registration
  t kill-server 2>/dev/null || true
  rm -f "$work/exited"
  state="$work/state-$(date +%s%N)"
  t new-session -d -s bench -x 120 -y 40 \
    "$bin --state $state; date +%s.%N > $work/exited; sleep 30"
  for _ in $(seq 100); do
    pid=$(pgrep -f "^$bin --state $state" | head -1 || true)
    [ -n "$pid" ] && t capture-pane -p -t bench | grep -q "201 received" && return
    sleep 0.1
  done
  echo "regscope did not start" >&2
  exit 1
}

# CPU time of the process, in nanoseconds: perf's task clock counts threads that end while it
# watches (idle pool threads do); without perf, the threads alive at both ends.
cpu_over() { # $1: pid, $2: seconds
  if command -v perf >/dev/null && perf stat -x, -e task-clock -p "$1" -- sleep 0.1 >/dev/null 2>&1; then
    perf stat -x, -e task-clock -p "$1" -- sleep "$2" 2>&1 >/dev/null | awk -F, '/task-clock/ {print $1 * 1e6}'
  else
    local before after
    before=$(cat /proc/"$1"/task/*/schedstat | awk '{s += $1} END {print s}')
    sleep "$2"
    after=$(cat /proc/"$1"/task/*/schedstat | awk '{s += $1} END {print s}')
    echo $((after - before))
  fi
}

start
# At rest: the start's pool threads have ended and its code pages have been given back.
sleep 5
echo "resident memory on the default: $(grep VmRSS /proc/"$pid"/status | awk '{print $2/1024}') MB" \
  "(private dirty $(grep Private_Dirty /proc/"$pid"/smaps_rollup | awk '{print $2/1024}') MB)"
# A countdown is on screen (the throttle's window): the UI wakes once a second.
awk -v d="$(cpu_over "$pid" "$idle")" -v s="$idle" \
  'BEGIN {printf "CPU while idle with a countdown: %.2f ms per second (one wake a second)\n", d / 1e6 / s}'

quit() { # $1: what to send
  start
  sent=$(date +%s.%N)
  case $1 in
  q) t send-keys -t bench q ;;
  ctrl-c) t send-keys -t bench C-c ;;
  sigterm) kill -TERM "$pid" ;;
  esac
  for _ in $(seq 300); do [ -s "$work/exited" ] && break; sleep 0.01; done
  awk -v a="$sent" -v b="$(cat "$work/exited")" 'BEGIN {printf "%.0f", (b - a) * 1000}'
}
for way in q ctrl-c sigterm; do
  runs=()
  for _ in 1 2 3 4 5; do runs+=("$(quit $way)"); done
  sorted=$(printf '%s\n' "${runs[@]}" | sort -n | tr '\n' ' ')
  echo "$way gives the shell back in: median $(printf '%s\n' "${runs[@]}" | sort -n | sed -n 3p) ms (runs: $sorted)"
done
