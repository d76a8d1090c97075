#!/bin/sh
# Runs inside the Bluetooth VM (Tests/vm/hostroot.py, the strap's case of Tests/vm/test_vm.py): the wearbridge
# daemon as the central against the virtual strap at $PEER_ADDRESS, a session started and ended by
# `ctl`, then the session exported for the host to check against what the strap sent (sent.jsonl).
# Usage: strap.sh WEARBRIDGE_BINARY SECONDS
set -u
B=$1
SECONDS_TO_RUN=$2
D=/tmp/wearbridge-e2e
mkdir -p "$D/data"
cat > "$D/wearbridge.toml" <<CONF
[gpsd]
host = "127.0.0.1"
port = 2947
[storage]
directory = "$D/data"
[control]
socket = "$D/control.sock"
[cues]
enabled = false
[strap]
address = "$PEER_ADDRESS"
address_type = "$PEER_ADDRESS_TYPE"
adapter = "$HCI_DEVICE"
silence_after = 5
CONF
C="--config $D/wearbridge.toml"
uptime_now() { cut -d' ' -f1 /proc/uptime; }

echo "daemon_start=$(uptime_now)" > "$OUT/e2e-timings"
"$B" run $C > "$OUT/daemon.log" 2>&1 &
PID=$!
i=0
until [ -S "$D/control.sock" ]; do
  i=$((i+1)); [ $i -gt 2400 ] && { echo "control socket never appeared"; cat "$OUT/daemon.log"; exit 2; }
  kill -0 $PID 2>/dev/null || { echo "daemon died"; cat "$OUT/daemon.log"; exit 2; }
  sleep 0.05
done
"$B" ctl start $C || exit 3
sleep "$SECONDS_TO_RUN"
"$B" ctl status --json $C > "$OUT/status.json"
# The daemon's own CPU time and memory after the run (strap at 1 Hz, no GPS).
cat "/proc/$PID/stat" > "$OUT/daemon-stat.txt"
grep -E 'VmRSS|VmHWM' "/proc/$PID/status" > "$OUT/daemon-mem.txt"
getconf CLK_TCK > "$OUT/clk-tck.txt"
"$B" ctl end $C || exit 4
kill -TERM $PID
wait $PID
echo "daemon_rc=$?" >> "$OUT/e2e-timings"
ID=$("$B" sessions --json $C | sed -n 's/.*"id":"\([^"]*\)".*/\1/p' | head -1)
[ -n "$ID" ] || { echo "no session recorded"; exit 5; }
"$B" show "$ID" --json --beats $C > "$OUT/session.json" || exit 6
echo "session $ID exported"

# The strap advertises again once the daemon is gone: `scan` must list it...
"$B" scan --seconds 3 --json --adapter "$HCI_DEVICE" > "$OUT/scan.json" || exit 7
# ...and a daemon told to take "the first heart-rate strap seen" finds it, records it and remembers it.
D2=/tmp/wearbridge-e2e-first-seen
mkdir -p "$D2/data"
sed -e "s|$D|$D2|g" -e 's|^address = .*|address = "first-seen"|' "$D/wearbridge.toml" > "$D2/wearbridge.toml"
C2="--config $D2/wearbridge.toml"
"$B" run $C2 > "$OUT/daemon-first-seen.log" 2>&1 &
PID=$!
i=0
until [ -S "$D2/control.sock" ]; do i=$((i+1)); [ $i -gt 2400 ] && exit 8; sleep 0.05; done
"$B" ctl start $C2 || exit 9
sleep 15
"$B" ctl status --json $C2 > "$OUT/status-first-seen.json"
cp "$D2/data/strap" "$OUT/remembered-strap" 2>/dev/null
"$B" ctl end $C2
kill -TERM $PID
wait $PID
