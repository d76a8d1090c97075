#!/usr/bin/env bash
# The strap end to end on a real Linux Bluetooth stack (Tests/vm/hostroot.py: Debian's kernel in
# qemu, a virtual controller and a virtual strap from Tests/ble/world.py). The strap drops the link
# twice (out of range 15 s each time), cuts every 7th payload short and loses skin contact for a
# while; the daemon is the central (scripts/ble-e2e-guest.sh). Afterwards the session it recorded is
# checked against every payload the strap sent (scripts/check-ble-e2e.py), and the figures printed.
# Needs root (apt-get, qemu's 9p export of /). About two and a half minutes once the VM's parts are
# fetched (the kernel package and Bumble: about 15 s more the first time).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${BLE_E2E_SECONDS:-95}
WORK=${BLE_VM_WORK:-/var/tmp/ble-vm}
swift build --product wearbridge
python3 Tests/vm/hostroot.py --work "$WORK" --timeout $((DURATION + 150)) \
    --world "--strap --strap-drop-after 20 --strap-away-for 15 --strap-drops 2 --strap-malformed-every 7 \
--strap-battery 80 --strap-contact-off 45 52" \
    --copy "$(swift build --show-bin-path)/wearbridge" --copy scripts/ble-e2e-guest.sh \
    "sh $WORK/bin/ble-e2e-guest.sh $WORK/bin/wearbridge $DURATION" || {
    status=$?
    echo "ble-e2e: the VM run failed (exit $status); its files: $WORK/out" >&2
    exit "$status"
}
python3 scripts/check-ble-e2e.py "$WORK/out" --drops 2
