#!/bin/sh
# Runs inside the Bluetooth VM (Tests/vm/hostroot.py, from scripts/bench/strap.sh): the daemon's CPU and memory while
# logging GPS from a real gpsd (gpsfake at the recording's 1 Hz pace), GPS-only and with the
# virtual strap notifying at 1 Hz, alternating twice (emulated CPU time is noisy). Same gpsd.
# Usage: bench-strap-guest.sh WEARBRIDGE_BINARY RECORDING SECONDS
set -u
B=$1
RECORDING=$2
SECONDS_TO_RUN=$3
WARMUP=15
# The guest's init brings up neither loopback nor ptys; gpsd and gpsfake need both.
ip link set lo up
mkdir -p /dev/pts && mount -t devpts -o ptmxmode=0666 devpts /dev/pts 2>/dev/null
[ -e /dev/ptmx ] || ln -s pts/ptmx /dev/ptmx
gpsfake -1 -q -c 0.25 -P 2947 "$RECORDING" > "$OUT/gpsfake.log" 2>&1 &
sleep 8
TCK=$(getconf CLK_TCK)
: > "$OUT/bench.txt"
for run in gps-only:1 gps+strap:1 gps-only:2 gps+strap:2; do
  phase=${run%:*}
  D=/tmp/bench-$phase-${run#*:}
  mkdir -p "$D/data"
  {
    printf '[gpsd]\nhost = "127.0.0.1"\nport = 2947\n[storage]\ndirectory = "%s/data"\n' "$D"
    printf '[control]\nsocket = "%s/control.sock"\n[session]\nautostart = true\n[cues]\nenabled = false\n' "$D"
    if [ "$phase" = "gps+strap" ]; then
      printf '[strap]\naddress = "%s"\naddress_type = "%s"\nadapter = "%s"\n' "$PEER_ADDRESS" "$PEER_ADDRESS_TYPE" "$HCI_DEVICE"
    fi
  } > "$D/wearbridge.toml"
  "$B" run --config "$D/wearbridge.toml" > "$OUT/bench-$phase.log" 2>&1 &
  PID=$!
  sleep $WARMUP
  T1=$(awk '{print $14 + $15}' "/proc/$PID/stat")
  sleep "$SECONDS_TO_RUN"
  T2=$(awk '{print $14 + $15}' "/proc/$PID/stat")
  HWM=$(awk '/VmHWM/{print $2}' "/proc/$PID/status")
  # A phase that recorded no GPS measures nothing: say so rather than print a figure.
  "$B" ctl status --json --config "$D/wearbridge.toml" | grep -q '"fixes_accepted":[1-9]' || echo "$phase recorded no fixes" >> "$OUT/bench.txt"
  "$B" ctl status --json --config "$D/wearbridge.toml" > "$OUT/bench-$phase-status.json"
  kill -TERM $PID; wait $PID
  echo "$phase cpu_ticks=$((T2 - T1)) tck=$TCK seconds=$SECONDS_TO_RUN vmhwm_kb=$HWM" | tee -a "$OUT/bench.txt"
done
