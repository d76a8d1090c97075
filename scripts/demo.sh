#!/usr/bin/env bash
# The main job until hardware is here: the daemon records a session from a real gpsd that gpsfake
# feeds with a recorded run, and relays it over mutual TLS to a phone-role peer (wearbridge-phone)
# on this machine; `ctl status` and the phone's status are shown as it goes, then the phone pauses,
# resumes and ends the session, and both sides' records are shown.
# Each step prints one line and how long it took; what apt and the compiler say goes to a log in
# the work directory (shown if the step fails).
set -euo pipefail
cd "$(dirname "$0")/.."
recording=${1:-../shared/benchmarks/gps/park_loop_run.nmea}
activity=${2:-running}
work=$(mktemp -d /tmp/wearbridge-demo.XXXXXX)
began=$SECONDS
# step TITLE COMMAND...: runs COMMAND with its output in $work/steps.log, then says how long it took.
step() {
    local title=$1 start=$SECONDS
    shift
    printf '%-58s' "$title"
    if ! "$@" >>"$work/steps.log" 2>&1; then
        echo " failed; the end of $work/steps.log:"
        tail -30 "$work/steps.log" >&2
        exit 1
    fi
    echo " $((SECONDS - start)) s"
}
step "installing what is missing (apt, pip; seconds if nothing)" scripts/setup.sh
step "building wearbridge and wearbridge-phone (release, once)" scripts/build-release.sh
bin="$(pwd)/.build-static/release/wearbridge"
phone_bin="$(pwd)/.build-static/release/wearbridge-phone"
# gpsfake runs in a process group of its own (setsid), so that its gpsd ends with it.
trap 'kill "${daemon:-}" "${phone:-}" 2>/dev/null || true; [ -z "${fake:-}" ] || kill -KILL -- "-$fake" 2>/dev/null || true' EXIT
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
phone_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$work/data" "$work/phone"
# Each side makes its identity; each pins the other's certificate.
"$bin" identity --storage "$work/data" --name demo-wearable
cat >"$work/phone.toml" <<TOML
[server]
listen = "127.0.0.1"
port = $phone_port
[storage]
directory = "$work/phone"
[[wearable]]
name = "demo-wearable"
certificate = "$work/data/identity.crt.pem"
TOML
"$phone_bin" identity --config "$work/phone.toml"
"$phone_bin" run --config "$work/phone.toml" 2>"$work/phone.log" &
phone=$!
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
[cues]
# A fresh machine has no sound server: the cues this run earns are printed at the end instead.
enabled = false
[phone]
address = "127.0.0.1"
port = $phone_port
certificate = "$work/phone/identity.crt.pem"
name = "demo-wearable"
TOML
echo "gpsfake: replaying $recording into a real gpsd on port $port (about 60x real time)"
setsid gpsfake -1 -q -W 900 -c 0.004 -P "$port" "$recording" >"$work/gpsfake.log" 2>&1 &
fake=$!
"$bin" run --config "$work/wearbridge.toml" 2>"$work/daemon.log" &
daemon=$!
for _ in $(seq 100); do "$bin" ctl status --socket "$work/control.sock" >/dev/null 2>&1 && break; sleep 0.1; done
# Until gpsd has played the whole recording (no fix for 3 s), show the live status now and then.
shown=0
while true; do
    sleep 3
    status=$("$bin" ctl status --json --socket "$work/control.sock")
    [ $shown = 1 ] || echo "first live figures, $((SECONDS - began)) s after the demo started:"
    shown=1
    age=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["status"]["gps"].get("last_fix_age_s", 0))' "$status")
    "$bin" ctl status --socket "$work/control.sock" | sed -n '1,3p'
    "$phone_bin" status --config "$work/phone.toml"
    python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) > 3 else 1)' "$age" && break
done
echo "the phone pauses, resumes and ends the session:"
"$phone_bin" pause --config "$work/phone.toml"
"$phone_bin" resume --config "$work/phone.toml"
"$phone_bin" end --config "$work/phone.toml"
sleep 2
kill -TERM "$daemon"; wait "$daemon" || true
echo "the phone's inbox (critical and notice messages, exactly once, in order):"
"$phone_bin" inbox --config "$work/phone.toml" | cut -c1-140
kill -TERM "$phone"; wait "$phone" || true
"$bin" outbox --storage "$work/data" | tail -4
"$bin" sessions --storage "$work/data"
"$bin" show "$("$bin" sessions --json --storage "$work/data" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')" --storage "$work/data"
session=$("$bin" sessions --json --storage "$work/data" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
echo "the audio cues this session earns (wearbridge cues; times on the daemon's clock, and the demo played at 60x):"
"$bin" cues "$session" --storage "$work/data" --config "$work/wearbridge.toml"
echo "data log: $work/data/wearbridge.sqlite (daemon log: $work/daemon.log); phone: $work/phone (log: $work/phone.log)"
