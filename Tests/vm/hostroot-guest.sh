#!/bin/sh
# Stage 2 of the test VM, PID 1 in the guest (Tests/vm/hostroot.py boots it): tmpfs where the guest
# writes, then the host's hand in it: each request the host drops in /mnt/out/requests (N.sh, with
# its guard in seconds in N.timeout) is run once, in order, as root, its output left in N.out and
# its exit status in N.rc. Requests start and stop the virtual Bluetooth world, bluetoothd and the
# cases (Tests/vm/guest/lib.sh). A request named N.poweroff powers the VM off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8 PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
OUT=/mnt/out
up() { cut -d' ' -f1 /proc/uptime; }
echo "[guest $(up)s] stage2_shell"
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /tmp
mkdir -p /run/dbus /var/lib/bluetooth /dev/pts
mountpoint -q /dev/pts || mount -t devpts devpts /dev/pts
ip link set lo up 2>/dev/null
hostname blevm
dir=$OUT/requests
mkdir -p "$dir"
echo "$(up)" > "$OUT/agent-ready"
echo "[guest $(up)s] agent ready"
while :; do
    for request in "$dir"/*.sh; do
        [ -e "$request" ] || continue
        base=${request%.sh}
        [ -e "$base.rc" ] && continue
        echo "[guest $(up)s] request $(basename "$base")"
        if [ -e "$base.poweroff" ]; then
            echo 0 > "$base.rc"
            sync
            busybox poweroff -f 2>/dev/null || echo o > /proc/sysrq-trigger
            sleep 10
        fi
        timeout -k 10 "$(cat "$base.timeout" 2>/dev/null || echo 600)" sh "$request" > "$base.out" 2>&1 < /dev/null
        echo $? > "$base.rc.part"
        sync
        mv "$base.rc.part" "$base.rc"
    done
    sleep 0.2
done
