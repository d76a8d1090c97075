#!/usr/bin/env bash
# Footpods and treadmills end to end on a real Linux Bluetooth stack: ../shared/ble-vm boots
# Debian's kernel in qemu; Tests/ble/sensor_world.py puts a virtual footpod (its stride off by 7%,
# the link dropped once, a truncated payload every 9th), a virtual treadmill (a workout of speed
# steps) and the strap on the guest's controller. `wearbridge sensor` follows the footpod and the
# treadmill; then the daemon runs twice, with the strap alone and with all three (an indoor session
# on the treadmill), its CPU and memory measured each time; last, a tunnel outdoors (gpsfake plays a
# route through a bending tunnel to a real gpsd, the footpod runs the same route; one daemon with it,
# one with the GPS alone). Afterwards what was printed and recorded is checked against every payload
# the devices sent and the route's truth (Tests/ble/check_sensors.py).
# Needs root (apt-get for qemu and bluez, /dev/vhci in the guest).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SHARED=$(cd ../shared && pwd -P)
[ -x "$SHARED/ble-vm/run-ble-e2e.sh" ] || { echo "../shared/ble-vm is missing" >&2; exit 1; }
DURATION=${SENSORS_E2E_SECONDS:-60}
export WORK=${WORK:-/var/tmp/ble-vm}
swift build --product wearbridge
# The guest sees the host's file system over 9p, except /tmp; a rebuild during the run must not swap
# the binary under it: the guest runs copies in $WORK/bin (as scripts/ble-e2e.sh does).
mkdir -p "$WORK/bin"
BIN="$WORK/bin/wearbridge-sensors"
cp "$(swift build --show-bin-path)/wearbridge" "$BIN.tmp" && mv "$BIN.tmp" "$BIN"
cp scripts/sensors-e2e-guest.sh Tests/ble/sensor_world.py Tests/ble/tunnel_route.py "$WORK/bin/"
for boot in 1 2 3; do
    TESTS=cmd \
    GUEST_CMD="sh $WORK/bin/sensors-e2e-guest.sh $BIN $WORK/venv $WORK/bin/sensor_world.py $SHARED $DURATION $WORK/bin/tunnel_route.py" \
    GUEST_CMD_TIMEOUT=$((DURATION + 700)) \
    QEMU_TIMEOUT=$((DURATION + 900)) \
      "$SHARED/ble-vm/run-ble-e2e.sh" > "$WORK/sensors-run.log" 2>&1 && run=0 || run=$?
    # Or it hangs: its second vCPU never sees a timer tick, and RCU stalls every 21 s (stop 41's CI).
    stalls=$(grep -ac 'rcu_preempt detected stalls' "$WORK/console.log" || true)
    if grep -aq 'stage2_shell' "$WORK/console.log" \
        || { ! grep -aq 'Kernel panic' "$WORK/console.log" && [ "${stalls:-0}" -lt 3 ]; }; then
        break
    fi
    echo "sensors-e2e: the guest kernel panicked or hung before its shell (boot $boot of 3)" >&2
done
tail -14 "$WORK/sensors-run.log"
[ "$run" = 0 ] || { echo "sensors-e2e: the VM run failed (exit $run); its log: $WORK/sensors-run.log" >&2; exit "$run"; }
python3 "$ROOT/Tests/ble/check_sensors.py" "$WORK/out"
