#!/usr/bin/env bash
# End to end on a real Linux Bluetooth stack: ../shared/ble-vm boots Debian's kernel in qemu with a
# virtual controller and a virtual strap that drops the link twice (out of range 15 s each time),
# sends a truncated payload every 7th beat and loses skin contact for a while. The wearbridge
# daemon is the central; afterwards the session it recorded is checked against every payload the
# strap sent (scripts/check-ble-e2e.py), and the figures are printed.
# Needs root (apt-get for qemu and bluez, /dev/vhci in the guest). About two minutes from clean.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SHARED=$(cd ../shared && pwd -P)
[ -x "$SHARED/ble-vm/run-ble-e2e.sh" ] || { echo "../shared/ble-vm is missing" >&2; exit 1; }
DURATION=${BLE_E2E_SECONDS:-95}
export WORK=${WORK:-/var/tmp/ble-vm}
swift build --product wearbridge
# The guest sees the host's file system over 9p, except /tmp (a tmpfs of its own), where a CI
# checkout may live; and a rebuild during the run must not swap the binary under the daemon. So the
# guest runs copies in $WORK/bin.
mkdir -p "$WORK/bin"
BIN="$WORK/bin/wearbridge"
cp "$(swift build --show-bin-path)/wearbridge" "$BIN.tmp" && mv "$BIN.tmp" "$BIN"
cp scripts/ble-e2e-guest.sh "$WORK/bin/ble-e2e-guest.sh"
# Debian's 6.12 kernel under multi-threaded TCG now and then dies in early boot (an "Oops: int3"
# while the kernel patches its own code on one vCPU and runs it on the other), before anything of
# ours has run. Such a boot is retried, at most twice, and said so; any other failure is not.
for boot in 1 2 3; do
    TESTS=cmd \
    GUEST_CMD="sh $WORK/bin/ble-e2e-guest.sh $BIN $DURATION" \
    GUEST_CMD_TIMEOUT=$((DURATION + 150)) \
    QEMU_TIMEOUT=$((DURATION + 330)) \
    PERIPH_ARGS="--drop-after 20 --away-for 15 --drops 2 --malformed-every 7 --battery 80 --contact-off 45 52" \
      "$SHARED/ble-vm/run-ble-e2e.sh" > "$WORK/run.log" 2>&1 && run=0 || run=$?
    # Or it hangs: its second vCPU never sees a timer tick, and RCU stalls every 21 s (stop 41's CI).
    stalls=$(grep -ac 'rcu_preempt detected stalls' "$WORK/console.log" || true)
    if grep -aq 'stage2_shell' "$WORK/console.log" \
        || { ! grep -aq 'Kernel panic' "$WORK/console.log" && [ "${stalls:-0}" -lt 3 ]; }; then
        break
    fi
    echo "ble-e2e: the guest kernel panicked or hung before its shell (boot $boot of 3):" >&2
    grep -a -m 3 -E 'Oops|RIP:|Kernel panic|detected stalls' "$WORK/console.log" >&2 || true
done
tail -14 "$WORK/run.log"
[ "$run" = 0 ] || { echo "ble-e2e: the VM run failed (exit $run); its log: $WORK/run.log" >&2; exit "$run"; }
python3 "$ROOT/scripts/check-ble-e2e.py" "$WORK/out" --drops 2
