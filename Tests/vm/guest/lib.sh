# The test VM's parts, sourced by the host's requests (Tests/vm/hostroot.py): the virtual Bluetooth
# world on the guest's /dev/vhci (Tests/ble/world.py), hci0 powered on through the kernel's
# management API, and the system D-Bus and Debian's bluetoothd as a Raspberry Pi OS runs them.
# VENV and WORLD come from /mnt/out/guest.env, written by the host before the boot.
. /mnt/out/guest.env
up() { cut -d' ' -f1 /proc/uptime; }

# world_stop: the world gone, and its controller with it (hci0 free for the next one).
world_stop() {
    for name in world btmon; do
        if [ -f "/run/$name.pid" ]; then
            kill "$(cat "/run/$name.pid")" 2>/dev/null
            rm -f "/run/$name.pid"
        fi
    done
    i=0
    while [ -e /sys/class/bluetooth/hci0 ]; do
        i=$((i + 1))
        [ $i -gt 300 ] && { echo "world_stop: hci0 still there 30 s after its world ended"; return 1; }
        sleep 0.1
    done
}

# world_start OUT WORLD_ARGS...: a new world (its log, what it sent and the HCI trace in OUT), its
# controller hci0 powered on.
world_start() {
    world_stop || return 1
    out=$1
    shift
    mkdir -p "$out"
    btmon -w "$out/hci.btsnoop" > /dev/null 2>&1 &
    echo $! > /run/btmon.pid
    "$VENV/bin/python" "$WORLD" --sent-log "$out/sent.jsonl" "$@" > "$out/world.log" 2>&1 &
    echo $! > /run/world.pid
    i=0
    until grep -q READY "$out/world.log" 2>/dev/null; do
        i=$((i + 1))
        [ $i -gt 1800 ] && { echo "world_start: the world was not ready in 180 s"; tail -20 "$out/world.log"; return 2; }
        kill -0 "$(cat /run/world.pid)" 2>/dev/null || { echo "world_start: the world died"; tail -20 "$out/world.log"; return 2; }
        sleep 0.1
    done
    btmgmt -i hci0 power on > "$out/btmgmt.log" 2>&1
    echo "world ready at $(up) s: $*"
}

# bluetoothd_stop: bluetoothd gone, and what it remembered (bonds) with it.
bluetoothd_stop() {
    if [ -f /run/bluetoothd.pid ]; then
        kill "$(cat /run/bluetoothd.pid)" 2>/dev/null
        i=0
        while kill -0 "$(cat /run/bluetoothd.pid)" 2>/dev/null; do
            i=$((i + 1))
            [ $i -gt 300 ] && { echo "bluetoothd_stop: bluetoothd still running after 30 s"; return 1; }
            sleep 0.1
        done
        rm -f /run/bluetoothd.pid
    fi
    mountpoint -q /var/lib/bluetooth && umount /var/lib/bluetooth
    return 0
}

# bluetoothd_start LOG: the system bus (once) and a fresh bluetoothd with its state in a tmpfs of the
# guest's, as on a Pi; returns once it owns org.bluez.
bluetoothd_start() {
    bluetoothd_stop || return 1
    mount -t tmpfs tmpfs /var/lib/bluetooth
    if [ ! -S /run/dbus/system_bus_socket ]; then
        dbus-daemon --system --fork --nopidfile || { echo "bluetoothd_start: dbus-daemon did not start"; return 2; }
    fi
    /usr/libexec/bluetooth/bluetoothd -n -d > "$1" 2>&1 &
    echo $! > /run/bluetoothd.pid
    i=0
    until dbus-send --system --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner \
        string:org.bluez 2>/dev/null | grep -q true; do
        i=$((i + 1))
        [ $i -gt 1200 ] && { echo "bluetoothd_start: bluetoothd did not take org.bluez in 120 s"; tail -5 "$1"; return 2; }
        sleep 0.1
    done
    echo "bluetoothd ready at $(up) s"
}
