#!/bin/sh
# Runs inside the Bluetooth VM (Tests/vm/hostroot.py, the footpod and treadmill case of Tests/vm/test_vm.py), with the strap,
# the footpod and the treadmill of Tests/ble/world.py on the guest's controller: `wearbridge sensor`
# follows the footpod and the treadmill at once for SECONDS, and `wearbridge scan` names what it
# hears. Last, a tunnel outdoors: gpsfake plays a route through a bending tunnel (TUNNEL_NMEA) to a
# real gpsd while the footpod runs the same route; one daemon with the footpod, one with the GPS alone.
# Usage: sensors.sh WEARBRIDGE_BINARY SECONDS TUNNEL_NMEA
set -u
B=$1
SECONDS_TO_RUN=$2
TUNNEL=$3
uptime_now() { cut -d' ' -f1 /proc/uptime; }
# A WAL database is its file and its -wal: the last commits may be only in the -wal (the daemon
# does not always checkpoint on its way out, and the read-only `sessions` cannot), so a copy of the
# file alone can lose them (an indoor session's log would read as an empty schema).
copy_log() {  # FROM TO
  cp "$1" "$2"
  rm -f "$2-wal" "$2-shm"
  if [ -f "$1-wal" ]; then cp "$1-wal" "$2-wal"; fi
}

ROUTE_DIR=/tmp/wearbridge-route
mkdir -p "$ROUTE_DIR"
echo "tools_start=$(uptime_now)" > "$OUT/sensors-timings"

"$B" sensor footpod F2:F2:F2:F2:F2:F2 --json --seconds "$SECONDS_TO_RUN" --log-level info \
  > "$OUT/footpod.jsonl" 2> "$OUT/footpod.log" &
F=$!
"$B" sensor treadmill F3:F3:F3:F3:F3:F3 --json --seconds "$SECONDS_TO_RUN" --log-level info \
  > "$OUT/treadmill.jsonl" 2> "$OUT/treadmill.log" &
T=$!
wait $F; echo "footpod_rc=$?" >> "$OUT/sensors-timings"
wait $T; echo "treadmill_rc=$?" >> "$OUT/sensors-timings"
echo "tools_end=$(uptime_now)" >> "$OUT/sensors-timings"
sleep 2
# Longer than the footpod stays away after a drop (8 s): a drop just before the tools ended must not
# hide it from the scan.
"$B" scan --seconds 10 --json --adapter hci0 > "$OUT/scan.json" 2> "$OUT/scan.log" || exit 7

# The daemon with the strap, the footpod and the treadmill for DAEMON_SECONDS with an indoor session
# open (and with BENCH=1 first with the strap alone, its CPU and memory compared).
D=/tmp/wearbridge-sensors
run_daemon() {  # NAME EXTRA_CONFIG START_FLAGS
  rm -rf "$D"; mkdir -p "$D/data"
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
address = "F1:F1:F1:F1:F1:F1"
$2
CONF
  C="--config $D/wearbridge.toml"
  "$B" run $C > "$OUT/daemon-$1.log" 2>&1 &
  PID=$!
  i=0
  until [ -S "$D/control.sock" ]; do
    i=$((i+1)); [ $i -gt 2400 ] && { echo "control socket never appeared"; cat "$OUT/daemon-$1.log"; exit 2; }
    kill -0 $PID 2>/dev/null || { echo "daemon died"; cat "$OUT/daemon-$1.log"; exit 2; }
    sleep 0.05
  done
  "$B" ctl start $3 $C > "$OUT/start-$1.txt" || { cat "$OUT/start-$1.txt"; exit 3; }
  # Settle (connections made), then measure over DAEMON_SECONDS.
  sleep 12
  cat "/proc/$PID/stat" > "$OUT/stat-$1-begin.txt"
  echo "$(uptime_now)" > "$OUT/uptime-$1-begin.txt"
  sleep "$DAEMON_SECONDS"
  cat "/proc/$PID/stat" > "$OUT/stat-$1-end.txt"
  echo "$(uptime_now)" > "$OUT/uptime-$1-end.txt"
  grep -E 'VmRSS|VmHWM' "/proc/$PID/status" > "$OUT/mem-$1.txt"
  # A footpod dropped late in the window comes back before the session ends: up to 60 s more (a
  # reconnection through the emulated controller took 19 s once); the check then wants its return.
  i=0
  while [ "$(grep -c 'event=footpod_lost' "$OUT/daemon-$1.log")" -ge 1 ] &&
    [ "$(grep -c 'event=footpod_connected' "$OUT/daemon-$1.log")" -le "$(grep -c 'event=footpod_lost' "$OUT/daemon-$1.log")" ]; do
    i=$((i+1)); [ $i -gt 120 ] && break
    sleep 0.5
  done
  "$B" ctl status --json $C > "$OUT/status-$1.json"
  "$B" ctl status $C > "$OUT/status-$1.txt"
  "$B" ctl end $C > /dev/null || exit 4
  kill -TERM $PID
  wait $PID
  echo "daemon_$1_rc=$?" >> "$OUT/sensors-timings"
  "$B" sessions --json $C > "$OUT/sessions-$1.json"
  copy_log "$D/data/wearbridge.sqlite" "$OUT/data-$1.sqlite"
}
DAEMON_SECONDS=${DAEMON_SECONDS:-30}
getconf CLK_TCK > "$OUT/clk-tck.txt"
# The strap alone is the baseline of the daemon's cost with the three: a figure for
# docs/benchmarks.md (BENCH=1).
[ "${BENCH:-0}" = 1 ] && run_daemon strap "" ""
run_daemon sensors "$(printf '[footpod]\naddress = "F2:F2:F2:F2:F2:F2"\n[treadmill]\naddress = "F3:F3:F3:F3:F3:F3"')" --indoor
# A tunnel outdoors: gpsfake plays a route with a bending tunnel (over two minutes without a fix)
# to a real gpsd; from the instant it starts, the world's footpod runs the same route, 3 % long.
# Two daemons read the same gpsd: one with the footpod, one with the GPS alone.
start_route_daemon() {  # NAME EXTRA_CONFIG
  R="$ROUTE_DIR/$1"
  rm -rf "$R"; mkdir -p "$R/data"
  cat > "$R/wearbridge.toml" <<CONF
[gpsd]
host = "127.0.0.1"
port = 2947
[storage]
directory = "$R/data"
[control]
socket = "$R/control.sock"
[cues]
enabled = false
$2
CONF
  "$B" run --config "$R/wearbridge.toml" > "$OUT/daemon-route-$1.log" 2>&1 &
  echo $! > "$R/pid"
  i=0
  until [ -S "$R/control.sock" ]; do
    i=$((i+1)); [ $i -gt 2400 ] && { echo "control socket never appeared"; cat "$OUT/daemon-route-$1.log"; exit 2; }
    sleep 0.05
  done
}
# gpsfake talks to gpsd through a pty (the guest's /dev has no devpts of its own yet), and the
# daemons to gpsd over loopback (the guest brings up no interface by itself).
mkdir -p /dev/pts
mountpoint -q /dev/pts || mount -t devpts devpts /dev/pts
ip link set lo up
# gpsfake first (its start is the route's instant 0 for the footpod), then the daemons: the moving
# part begins after 20 s standing, time for both to connect, the footpod too, and start.
cut -d' ' -f1 /proc/uptime > "$OUT/route-go.part"
gpsfake -1 -q -c 0.5 -P 2947 "$TUNNEL" > "$OUT/gpsfake.log" 2>&1 &
GPSFAKE=$!
mv "$OUT/route-go.part" "$OUT/route-go"
start_route_daemon footpod "$(printf '[footpod]\naddress = "F2:F2:F2:F2:F2:F2"')"
start_route_daemon alone ""
sleep 10  # gpsd has a fix (still the pre-roll): the sessions begin standing at the start
for name in footpod alone; do "$B" ctl start --config "$ROUTE_DIR/$name/wearbridge.toml" > /dev/null || exit 5; done
wait $GPSFAKE
sleep 2
for name in footpod alone; do
  C="--config $ROUTE_DIR/$name/wearbridge.toml"
  "$B" ctl status --json $C > "$OUT/status-route-$name.json"
  "$B" ctl end $C > /dev/null || exit 6
  kill -TERM "$(cat "$ROUTE_DIR/$name/pid")"
  wait "$(cat "$ROUTE_DIR/$name/pid")"
  copy_log "$ROUTE_DIR/$name/data/wearbridge.sqlite" "$OUT/data-route-$name.sqlite"
done
exit 0
