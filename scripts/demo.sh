#!/usr/bin/env bash
# The main job on one machine: the daemon records a session from a real gpsd that gpsfake feeds with
# a recorded run (data/gps/park_loop_run.nmea, played about 60x fast), and relays it over mutual TLS to
# a phone-role peer (wearbridge-phone); `ctl status` and the phone's status are shown as it goes, then
# the phone pauses, resumes and ends the session, and both sides' records are shown.
#   scripts/demo.sh [RECORDING.nmea|.log [ACTIVITY]]     GPSD_PORT=N picks gpsd's port (default: a free one)
#   WEARBRIDGE_BIN=/usr/bin scripts/demo.sh              the programs already there (the installed
#                                                        packages, on a Pi with no compiler) instead of a build
# Each step prints one line and how long it took; what apt and the compiler say goes to a log in the
# work directory (shown if the step fails). Whatever cannot start stops the demo within seconds,
# with one line saying what and where its log is: nothing waits forever.
set -euo pipefail
cd "$(dirname "$0")/.."
recording=${1:-data/gps/park_loop_run.nmea}
activity=${2:-running}
fix_within=${DEMO_FIX_WITHIN:-30}
fail() { echo "demo: $*" >&2; exit 1; }
# What can be checked before anything is installed or built.
[ -f "$recording" ] && [ -r "$recording" ] ||
    fail "no recording at $recording (give a log gpsfake can play: scripts/demo.sh FILE)"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port_free() {
    python3 -c 'import socket, sys
s = socket.socket()
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(1)' "$1"
}
if [ -n "${GPSD_PORT:-}" ]; then
    port_free "$GPSD_PORT" || fail "port $GPSD_PORT (GPSD_PORT) is taken by another program; free it or leave GPSD_PORT unset"
fi
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
if [ -n "${WEARBRIDGE_BIN:-}" ]; then
    bin=$WEARBRIDGE_BIN/wearbridge phone_bin=$WEARBRIDGE_BIN/wearbridge-phone
    [ -x "$bin" ] && [ -x "$phone_bin" ] ||
        fail "no wearbridge and wearbridge-phone in $WEARBRIDGE_BIN (WEARBRIDGE_BIN); leave it unset to build them"
    echo "using wearbridge and wearbridge-phone from $WEARBRIDGE_BIN"
else
    step "building wearbridge and wearbridge-phone (release, once)" scripts/build/build-release.sh
    bin="$(pwd)/.build-static/release/wearbridge"
    phone_bin="$(pwd)/.build-static/release/wearbridge-phone"
fi
# gpsfake runs in a process group of its own (setsid), so that its gpsd ends with it. The demo ends
# once they are gone (a signal is sent at once, but taken when the kernel next runs them), within 5 s.
stop_all() {
    kill "${daemon:-}" "${phone:-}" 2>/dev/null || true
    [ -n "${fake:-}" ] || return 0
    kill -KILL -- "-$fake" 2>/dev/null || true
    wait "$fake" 2>/dev/null || true
    for _ in $(seq 50); do
        [ -z "$(pgrep -g "$fake" 2>/dev/null)" ] && return 0
        sleep 0.1
    done
}
trap stop_all EXIT
port=${GPSD_PORT:-$(free_port)}
phone_port=$(free_port)
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
# alive PID: the process runs (a child that exited stays a zombie until the shell reaps it).
alive() {
    local state
    state=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${state#Z}" = "$state" ]
}
# gpsd listening within 10 s, or gpsfake's own words.
listening() { python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1).close()' "$1" 2>/dev/null; }
gpsfake_stopped() { fail "gpsfake stopped before gpsd listened: $(tail -1 "$work/gpsfake.log") (log: $work/gpsfake.log)"; }
listened=
for _ in $(seq 100); do
    alive "$fake" || gpsfake_stopped
    if listening "$port"; then listened=1 && break; fi
    sleep 0.1
done
[ -n "$listened" ] || fail "gpsd did not listen on port $port within 10 s (log: $work/gpsfake.log)"
"$bin" run --config "$work/wearbridge.toml" 2>"$work/daemon.log" &
daemon=$!
for _ in $(seq 100); do
    alive "$daemon" || fail "wearbridge run stopped: $(tail -1 "$work/daemon.log") (log: $work/daemon.log)"
    "$bin" ctl status --socket "$work/control.sock" >/dev/null 2>&1 && break
    sleep 0.1
done
"$bin" ctl status --socket "$work/control.sock" >/dev/null 2>&1 ||
    fail "wearbridge run did not answer on its control socket within 10 s (log: $work/daemon.log)"
# gps_state: "AGE REASON" from one status: seconds since the last fix ("none" before the first) and
# why there is no fix ("none" while there is one); "unknown unknown" if the daemon did not say.
gps_state() {
    "$bin" ctl status --json --socket "$work/control.sock" 2>/dev/null | python3 -c '
import json, sys
gps = json.load(sys.stdin)["status"]["gps"]
print(gps.get("last_fix_age_s", "none"), (gps.get("no_fix") or {}).get("reason", "none"))' 2>/dev/null ||
        echo unknown unknown
}
# A first fix within the deadline, or what the daemon knows of why not (what gpsd told it): a
# receiver that sends nothing (the daemon says so after 5 s of silence) stops the demo at once, no
# gpsd, no receiver or gpsd's refusal once they held for 3 s; a receiver still searching has until
# the deadline.
waiting_since=$SECONDS
deadline=$((SECONDS + fix_within))
hopeless_since=
while true; do
    read -r age reason <<<"$(gps_state)"
    case $age in none | unknown) ;; *) break ;; esac
    alive "$fake" || fail "gpsfake stopped: $(tail -1 "$work/gpsfake.log") (log: $work/gpsfake.log)"
    alive "$daemon" || fail "wearbridge run stopped: $(tail -1 "$work/daemon.log") (log: $work/daemon.log)"
    case $reason in
    receiver_silent) hopeless_since=$((SECONDS - 3)) ;;
    no_receiver | gpsd_unreachable | gpsd_error) hopeless_since=${hopeless_since:-$SECONDS} ;;
    *) hopeless_since= ;;
    esac
    if [ "$SECONDS" -ge "$deadline" ] || { [ -n "$hopeless_since" ] && [ $((SECONDS - hopeless_since)) -ge 3 ]; }; then
        why=$("$bin" ctl status --socket "$work/control.sock" | sed -n 's/^gps *//p')
        fail "no fix after $((SECONDS - waiting_since)) s: $why (logs: $work/gpsfake.log, $work/daemon.log)"
    fi
    sleep 0.2
done
echo "first live figures, $((SECONDS - began)) s after the demo started:"
# Until gpsd has played the whole recording (no fix for 3 s), the live status now and then; a
# recording that never ends is cut at DEMO_PLAY_WITHIN seconds.
play_deadline=$((SECONDS + ${DEMO_PLAY_WITHIN:-600}))
while true; do
    alive "$daemon" || fail "wearbridge run stopped: $(tail -1 "$work/daemon.log") (log: $work/daemon.log)"
    "$bin" ctl status --socket "$work/control.sock" | sed -n '1,3p'
    "$phone_bin" status --config "$work/phone.toml"
    read -r age _ <<<"$(gps_state)"
    if [ "$age" != unknown ] && [ "$age" != none ] && python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) > 3 else 1)' "$age"; then
        break
    fi
    if [ "$SECONDS" -ge "$play_deadline" ]; then
        echo "the recording still plays after ${DEMO_PLAY_WITHIN:-600} s: the session is ended here"
        break
    fi
    sleep 3
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
session=$("$bin" sessions --json --storage "$work/data" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
"$bin" show "$session" --storage "$work/data"
echo "the audio cues this session earns (wearbridge cues; times on the daemon's clock, and the demo played at 60x):"
"$bin" cues "$session" --storage "$work/data" --config "$work/wearbridge.toml"
echo "data log: $work/data/wearbridge.sqlite (daemon log: $work/daemon.log); phone: $work/phone (log: $work/phone.log)"
