#!/usr/bin/env bash
# The daemon beside bluetoothd and its other users, as a Raspberry Pi runs: Debian's kernel in qemu
# with the system D-Bus and bluetoothd up (Tests/vm/hostroot.py --bluetoothd), the virtual strap of
# Tests/ble/world.py, and the cases of scripts/ble-coexist-guest.sh: a desktop's discovery during
# `first-seen`, another program connecting the strap first and then disconnecting it, another
# program holding its notifications and letting go, the kernel's path told "busy", a footpod and a
# treadmill beside the strap (the footpod dropping its link once), the strap demanding bonding
# throughout: bonded once, then never paired again. scripts/check-ble-coexist.py judges the figures.
# Needs root. About four minutes once the VM's parts are fetched.
# The figures of docs/benchmarks.md add two cases, the footprint of both paths and the kernel's raw
# scan beside a desktop's discovery, with a strap that does not demand bonding (the kernel's path
# cannot bond):
#   BLE_COEXIST_WORLD="--strap --strap-battery 80" BLE_COEXIST_CASES="footprint kernel_under_discovery"
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${BLE_VM_WORK:-/var/tmp/ble-vm}
CASES=${BLE_COEXIST_CASES:-"bonded desktop_discovery other_connects_first held kernel_held sensors pairings"}
swift build --product wearbridge
BIN="$(swift build --show-bin-path)/wearbridge"
run() { # run NAME WORLD CASES
    python3 Tests/vm/hostroot.py --work "$WORK" --bluetoothd --timeout 540 --world "$2" \
        --copy "$BIN" --copy scripts/ble-coexist-guest.sh \
        "sh $WORK/bin/ble-coexist-guest.sh $WORK/bin/wearbridge '$3'" || {
        status=$?
        echo "ble-coexist: the VM run ($1) failed (exit $status); its files: $WORK/out; the end of its output:" >&2
        tail -n 40 "$WORK/out/cmd.log" >&2 || true
        exit "$status"
    }
    rm -rf "$WORK/coexist"
    mkdir -p "$WORK/coexist"
    cp -r "$WORK/out" "$WORK/coexist/$1"
}
# One boot: a strap that demands bonding (bonded in the first case, never paired again in the
# others), dropping its link once 20 s into the first; a footpod that drops its link once.
WORLD=${BLE_COEXIST_WORLD:-"--strap --strap-battery 80 --strap-require-bond --strap-drop-after 20 --strap-away-for 3 \
--strap-drops 1 --footpod --treadmill --footpod-drop-after 15 --footpod-away-for 3 --footpod-drops 1"}
run coexist "$WORLD" "$CASES"
python3 scripts/check-ble-coexist.py "$WORK/coexist"
