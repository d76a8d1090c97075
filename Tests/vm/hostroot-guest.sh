#!/bin/sh
# Stage 2 of the Bluetooth VM, PID 1 in the guest (Tests/vm/hostroot.py boots it): the virtual
# Bluetooth world on /dev/vhci (Tests/ble/world.py), hci0 powered on through the kernel's management
# API (no bluetoothd), then the test's command with the world's addresses in its environment. What
# to run comes in /mnt/out/guest.env; results stay in /mnt/out, which is the host's results folder.
# Always powers the VM off; the command's exit code is in /mnt/out/rc.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8 PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
OUT=/mnt/out
. "$OUT/guest.env"
up() { cut -d' ' -f1 /proc/uptime; }
mark() { echo "$1=$(up)" >> "$OUT/timings"; echo "[guest $(up)s] $1"; }
finish() {
    echo "$1" > "$OUT/rc"
    mark end
    sync
    busybox poweroff -f 2>/dev/null || echo o > /proc/sysrq-trigger
    sleep 10
}
: > "$OUT/timings"
mark stage2_shell
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /tmp
mkdir -p /run/dbus /var/lib/bluetooth
hostname blevm
btmon -w "$OUT/hci.btsnoop" > /dev/null 2>&1 &
# shellcheck disable=SC2086 # the world's options, split as words
"$VENV/bin/python" "$WORLD" --sent-log "$OUT/sent.jsonl" $WORLD_ARGS > "$OUT/world.log" 2>&1 &
world=$!
i=0
until grep -q READY "$OUT/world.log" 2>/dev/null; do
    i=$((i + 1))
    [ $i -gt 600 ] && { echo "[guest] the virtual world was not ready in 60 s"; cat "$OUT/world.log"; finish 2; }
    kill -0 $world 2>/dev/null || { echo "[guest] the virtual world died"; cat "$OUT/world.log"; finish 2; }
    sleep 0.1
done
mark world_ready
btmgmt -i hci0 power on > "$OUT/btmgmt.log" 2>&1
mark hci0_powered
if [ "${BLUETOOTHD:-0}" = 1 ]; then
    # As on a Pi: the system bus and bluetoothd, with its state in a tmpfs of the guest's.
    mount -t tmpfs tmpfs /var/lib/bluetooth
    dbus-daemon --system --fork --nopidfile || { echo "[guest] dbus-daemon did not start"; finish 2; }
    /usr/libexec/bluetooth/bluetoothd -n -d > "$OUT/bluetoothd.log" 2>&1 &
    i=0
    until dbus-send --system --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner \
        string:org.bluez 2>/dev/null | grep -q true; do
        i=$((i + 1))
        [ $i -gt 300 ] && { echo "[guest] bluetoothd did not take org.bluez in 30 s"; tail -5 "$OUT/bluetoothd.log"; finish 2; }
        sleep 0.1
    done
    mark bluetoothd_ready
fi
export OUT PEER_ADDRESS=F1:F1:F1:F1:F1:F1 PEER_ADDRESS_TYPE=random HCI_DEVICE=hci0
timeout "$CMD_TIMEOUT" sh "$OUT/guest-cmd.sh" > "$OUT/cmd.log" 2>&1
rc=$?
echo "cmd_rc=$rc" >> "$OUT/timings"
mark cmd_done
tail -40 "$OUT/cmd.log"
kill $world 2>/dev/null
finish $rc
