#!/usr/bin/env bash
# Cues in Bluetooth headphones on a headless system, end to end: in the Bluetooth VM with the system
# D-Bus and bluetoothd up (Tests/vm/hostroot.py --bluetoothd), BlueZ's btvirt makes two BR/EDR
# controllers, one the wearable's and one the headphones' (Tests/ble/a2dp_sink.py, Bumble's A2DP
# sink); Debian's bluez-alsa carries the daemon's cue over A2DP (SBC); the far side's frames are
# decoded by sbc-tools' sbcdec and judged by scripts/check-cues-a2dp.py: the cue heard, its delay
# from the command and its level against espeak-ng's own; then the headphones go and the next cue
# fails in the journal without blocking the daemon (scripts/cues-a2dp-guest.sh). Needs root. About
# two minutes once the VM's parts are fetched.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${BLE_VM_WORK:-/var/tmp/ble-vm}
swift build --product wearbridge
python3 Tests/vm/hostroot.py --work "$WORK" --bluetoothd --timeout 240 --world=--strap \
    --copy "$(swift build --show-bin-path)/wearbridge" --copy scripts/cues-a2dp-guest.sh \
    --copy Tests/ble/a2dp_sink.py \
    "sh $WORK/bin/cues-a2dp-guest.sh $WORK/bin/wearbridge $WORK/venv/bin/python $WORK/bin/a2dp_sink.py" || {
    status=$?
    echo "cues-a2dp: the VM run failed (exit $status); its files: $WORK/out" >&2
    exit "$status"
}
python3 scripts/check-cues-a2dp.py "$WORK/out"
