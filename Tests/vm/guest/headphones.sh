#!/bin/sh
# Runs inside the Bluetooth VM with the system D-Bus and bluetoothd up (the headphones' case of Tests/vm/test_vm.py):
# cues in Bluetooth headphones on a headless system. BlueZ's btvirt adds a BR/EDR controller (hci1,
# the wearable's) and a second one behind its server socket, where Tests/ble/a2dp_sink.py (Bumble)
# is the headphones; Debian's bluez-alsa (`bluealsa`, the A2DP source) plays what the daemon's cue
# player sends to its ALSA device. The daemon's "session started" cue is heard at the far side, then
# the headphones go and the next cue must fail in the journal, not block.
# Usage: headphones.sh WEARBRIDGE VENV_PYTHON SINK_SCRIPT
set -u
B=$1
PY=$2
SINK=$3
up() { cut -d' ' -f1 /proc/uptime; }
mark() { echo "$1=$(up)" >> "$OUT/a2dp-timings"; }
: > "$OUT/a2dp-timings"
fail() { echo "cues-a2dp: $*"; exit "${2:-2}"; }

btvirt -l1 -s > "$OUT/btvirt.log" 2>&1 &
i=0
until hciconfig hci1 > /dev/null 2>&1 && [ -S /tmp/bt-server-bredrle ]; do
    i=$((i + 1)); [ $i -gt 600 ] && fail "btvirt made no controller in 60 s: $(cat "$OUT/btvirt.log")"
    sleep 0.1
done
btmgmt -i hci1 power on > /dev/null
WEARABLE=$(hciconfig hci1 | awk '/BD Address/ { print $3 }')
"$PY" "$SINK" --transport unix:/tmp/bt-server-bredrle --out "$OUT/far" > "$OUT/sink.log" 2>&1 &
SINK_PID=$!
i=0
until grep -q READY "$OUT/sink.log"; do
    i=$((i + 1)); [ $i -gt 1800 ] && fail "the headphones never came up in 180 s: $(tail -5 "$OUT/sink.log")"
    kill -0 $SINK_PID 2>/dev/null || fail "the headphones died: $(tail -5 "$OUT/sink.log")"
    sleep 0.1
done
PHONES=$(sed -n 's/^ADDRESS //p' "$OUT/sink.log")
echo "wearable $WEARABLE, headphones $PHONES"
bluealsa -S -i hci1 -p a2dp-source > "$OUT/bluealsa.log" 2>&1 &
BLUEALSA=$!
sleep 1
mark paired_start
# Pairing as a user does it once: bluetoothctl, on the wearable's controller. bluetoothctl reads its
# commands as they come, also before it has reached bluetoothd, and a command it gets too soon fails:
# each step is said again every 5 s until what it asked for is there (the headphones discovered,
# paired, then their A2DP stream's PCM in bluealsa: the link pairing opens is not yet the profile's
# connection, which `connect` makes), within a guard of 2 minutes a step.
DEV=/org/bluez/hci1/dev_$(echo "$PHONES" | tr : _)
device() { busctl --system get-property org.bluez "$DEV" org.bluez.Device1 "$1" 2>/dev/null | grep -q true; }
known() { busctl --system get-property org.bluez "$DEV" org.bluez.Device1 Address > /dev/null 2>&1; }
pcm() { busctl --system tree org.bluealsa 2>/dev/null | grep -q "dev_$(echo "$PHONES" | tr : _)/a2dp"; }
step() {  # CONDITION COMMAND...: the commands said until the condition holds
    condition=$1
    shift
    attempt=0
    until $condition; do
        attempt=$((attempt + 1))
        [ $attempt -gt 24 ] && return 1
        for command in "$@"; do echo "$command"; done
        j=0
        while [ $j -lt 25 ] && ! $condition; do j=$((j + 1)); sleep 0.2; done
    done
}
{ step known "select $WEARABLE" "agent NoInputNoOutput" "default-agent" "scan on"
  echo "scan off"
  step "device Paired" "pair $PHONES"
  echo "trust $PHONES"
  step pcm "connect $PHONES"
  sleep 1; echo quit; } | bluetoothctl > "$OUT/pairing.log" 2>&1
pcm || fail "no A2DP stream to the headphones in bluealsa: $(sed 's/\x1b\[[0-9;]*m//g' "$OUT/pairing.log" | tail -15)"
mark connected

D=/tmp/wb-a2dp
mkdir -p "$D/data"
cat > "$D/w.toml" <<CONF
[gpsd]
host = "127.0.0.1"
port = 2947
[storage]
directory = "$D/data"
[control]
socket = "$D/control.sock"
[cues]
enabled = true
output = "alsa"
alsa_device = "bluealsa:DEV=$PHONES,PROFILE=a2dp"
CONF
C="--config $D/w.toml"
"$B" run $C > "$OUT/daemon-a2dp.log" 2>&1 &
PID=$!
i=0
until [ -S "$D/control.sock" ]; do
    i=$((i + 1)); [ $i -gt 2400 ] && fail "no control socket within 120 s: $(cat "$OUT/daemon-a2dp.log")"
    sleep 0.05
done
sleep 1
mark cue_asked
"$B" ctl start $C > /dev/null || fail "ctl start" 3
# The cue played to its end (the daemon says so), then a moment for its last frames on the air.
i=0
until grep -q "event=cue_spoken" "$OUT/daemon-a2dp.log"; do
    i=$((i + 1)); [ $i -gt 600 ] && fail "the cue was not spoken within 120 s: $(tail -5 "$OUT/daemon-a2dp.log")"
    sleep 0.2
done
sleep 2
mark headphones_gone
kill $SINK_PID
wait $SINK_PID 2>/dev/null
sleep 3
mark second_cue_asked
"$B" ctl pause $C > /dev/null || fail "ctl pause with the headphones gone" 4
# The pause's cue given up (its output failed or hung), then status.
i=0
until grep -q "event=cue_dropped" "$OUT/daemon-a2dp.log"; do
    i=$((i + 1)); [ $i -gt 600 ] && fail "the cue with the headphones gone was not given up within 120 s" 4
    sleep 0.2
done
mark status_asked
timeout 60 "$B" ctl status $C > "$OUT/status-a2dp.txt" || fail "status did not answer with the headphones gone" 5
mark status_answered
"$B" ctl end $C > /dev/null
kill -TERM $PID
wait $PID
echo "daemon_rc=$?" >> "$OUT/a2dp-timings"
ID=$("$B" sessions --json $C | sed -n 's/.*"id":"\([^"]*\)".*/\1/p' | head -1)
"$B" show "$ID" --json $C > "$OUT/session-a2dp.json" || fail "show" 6
# The same words from espeak-ng alone, for the level at the far side against the source's.
espeak-ng -w "$OUT/reference.wav" "Session started"
sbcdec -f "$OUT/far.au" "$OUT/far.sbc" > "$OUT/sbcdec.log" 2>&1 || fail "sbcdec: $(cat "$OUT/sbcdec.log")" 7
kill $BLUEALSA 2>/dev/null
