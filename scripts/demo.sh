#!/usr/bin/env bash
# The main job until hardware is here: the daemon records a session from a real gpsd that gpsfake
# feeds with a recorded run; `ctl status` is shown as it goes, then the session is ended and shown.
set -euo pipefail
cd "$(dirname "$0")/.."
recording=${1:-../shared/benchmarks/gps/park_loop_run.nmea}
activity=${2:-running}
scripts/setup.sh
bin=$(scripts/build-release.sh | tail -1)
work=$(mktemp -d /tmp/wearbridge-demo.XXXXXX)
# gpsfake runs in a process group of its own (setsid), so that its gpsd ends with it.
trap 'kill "${daemon:-}" 2>/dev/null || true; [ -z "${fake:-}" ] || kill -KILL -- "-$fake" 2>/dev/null || true' EXIT
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$work/data"
cat >"$work/wearbridge.toml" <<TOML
[gpsd]
port = $port
[storage]
directory = "$work/data"
[control]
socket = "$work/control.sock"
[session]
activity = "$activity"
autostart = true
TOML
echo "gpsfake: replaying $recording into a real gpsd on port $port (about 60x real time)"
setsid gpsfake -1 -q -W 900 -c 0.004 -P "$port" "$recording" >"$work/gpsfake.log" 2>&1 &
fake=$!
"$bin" run --config "$work/wearbridge.toml" 2>"$work/daemon.log" &
daemon=$!
for _ in $(seq 100); do "$bin" ctl status --socket "$work/control.sock" >/dev/null 2>&1 && break; sleep 0.1; done
# Until gpsd has played the whole recording (no fix for 3 s), show the live status now and then.
while true; do
    sleep 3
    status=$("$bin" ctl status --json --socket "$work/control.sock")
    age=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["status"]["gps"].get("last_fix_age_s", 0))' "$status")
    "$bin" ctl status --socket "$work/control.sock" | sed -n '1,3p'
    python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) > 3 else 1)' "$age" && break
done
"$bin" ctl end --socket "$work/control.sock"
kill -TERM "$daemon"; wait "$daemon" || true
"$bin" sessions --storage "$work/data"
"$bin" show "$("$bin" sessions --json --storage "$work/data" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')" --storage "$work/data"
echo "data log: $work/data/wearbridge.sqlite (daemon log: $work/daemon.log)"
