#!/usr/bin/env bash
# The main job until hardware is here: a real gpsd (through gpsfake) replays a recorded receiver,
# gpspipe records what gpsd says, and `wearbridge replay` runs it through the distance core.
set -euo pipefail
cd "$(dirname "$0")/.."
recording=${1:-../shared/benchmarks/gps/park_loop_run.nmea}
activity=${2:-running}
scripts/setup.sh
swift build -c release --product wearbridge
work=$(mktemp -d)
trap 'kill "${fake:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
echo "gpsfake: replaying $recording into a real gpsd on port $port"
gpsfake -1 -q -c 0.003 -P "$port" "$recording" >"$work/gpsfake.log" 2>&1 &
fake=$!
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
timeout 300 gpspipe -w "127.0.0.1:$port" >"$work/session.jsonl" || true
echo "gpspipe recorded $(grep -c '"TPV"' "$work/session.jsonl") TPV reports"
.build/release/wearbridge replay --activity "$activity" "$work/session.jsonl"
