#!/usr/bin/env bash
# Footpods and treadmills end to end on a real Linux Bluetooth stack (Tests/vm/hostroot.py: Debian's
# kernel in qemu). Tests/ble/world.py puts a virtual footpod (its stride off by 7 %, the link dropped
# three times, a truncated payload every 9th), a virtual treadmill (a workout of speed steps) and the
# strap on the guest's controller. `wearbridge sensor` follows the footpod and the treadmill; then the
# daemon runs twice, with the strap alone and with all three (an indoor session on the treadmill),
# its CPU and memory measured each time; last, a tunnel outdoors (gpsfake plays a route through a
# bending tunnel to a real gpsd, the footpod runs the same route; one daemon with it, one with the GPS
# alone). Afterwards what was printed and recorded is checked against every payload the devices sent
# and the route's truth (Tests/ble/check_sensors.py). Needs root. About ten minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${SENSORS_E2E_SECONDS:-60}
WORK=${BLE_VM_WORK:-/var/tmp/ble-vm}
swift build --product wearbridge
# The tunnel's route, made here (deterministic): its NMEA for gpsfake and its truth for the footpod.
route=$(mktemp -d /var/tmp/wearbridge-route.XXXXXX)
trap 'rm -rf "$route"' EXIT
python3 Tests/ble/tunnel_route.py "$route/tunnel.nmea" "$route/route.json" --preroll 20 > "$route/route.log"
# Beside bluetoothd, as on a Pi (SENSORS_BLUETOOTHD=0: the kernel's path). bluetoothd connects
# sooner, so the field tools' phase sees more of the footpod's drops: one more keeps one for the
# daemon's phase.
bluetoothd=(--bluetoothd)
drops=4
[ "${SENSORS_BLUETOOTHD:-1}" != 0 ] || { bluetoothd=(); drops=3; }
python3 Tests/vm/hostroot.py --work "$WORK" --timeout $((DURATION + 700)) "${bluetoothd[@]}" \
    --world "--strap --footpod --treadmill --duration 200 --footpod-drop-after 20 --footpod-away-for 8 \
--footpod-drops $drops --footpod-malformed-every 9 --footpod-drift 0.02 --route $WORK/bin/route.json \
--route-go /mnt/out/route-go" \
    --copy "$(swift build --show-bin-path)/wearbridge" --copy scripts/sensors-e2e-guest.sh \
    --copy "$route/tunnel.nmea" --copy "$route/route.json" \
    "sh $WORK/bin/sensors-e2e-guest.sh $WORK/bin/wearbridge $DURATION $WORK/bin/tunnel.nmea" || {
    status=$?
    echo "sensors-e2e: the VM run failed (exit $status); its files: $WORK/out" >&2
    exit "$status"
}
cp "$route/route.json" "$WORK/out/route.json"
python3 Tests/ble/check_sensors.py "$WORK/out"
