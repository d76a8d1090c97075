#!/bin/busybox sh
# Stage 1 of the Bluetooth VM (busybox in a small initramfs): load the modules it carries, mount the
# host's root (9p, read-only) under a tmpfs (overlayfs), so that the guest runs the host's programs
# at their own paths while it can still write, mount the results folder (9p tag "out") at /mnt/out,
# and hand over to the stage-2 script that `vm.stage2=` names on the kernel's command line.
/bin/busybox --install -s /bin
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for module in $(cat /modules.order); do
    insmod "/lib/modules/$module" || echo "[init] insmod $module failed"
done
stage2=
for argument in $(cat /proc/cmdline); do
    case "$argument" in vm.stage2=*) stage2="${argument#vm.stage2=}" ;; esac
done
mkdir -p /mnt/lower /mnt/rw /newroot
if ! mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=loose hostroot /mnt/lower; then
    echo "[init] cannot mount the host's root over 9p"
    poweroff -f
fi
mount -t tmpfs -o size=256m tmpfs /mnt/rw
mkdir -p /mnt/rw/upper /mnt/rw/work
if ! mount -t overlay -o lowerdir=/mnt/lower,upperdir=/mnt/rw/upper,workdir=/mnt/rw/work overlay /newroot; then
    echo "[init] cannot mount the overlay"
    poweroff -f
fi
# The guest kernel's modules, so that modprobe works inside.
release=$(uname -r)
mkdir -p "/newroot/usr/lib/modules/$release"
cp -a "/lib/modules/$release/." "/newroot/usr/lib/modules/$release/"
mkdir -p /newroot/mnt/out
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 out /newroot/mnt/out || echo "[init] no results folder"
mount --move /proc /newroot/proc
mount --move /sys /newroot/sys
mount --move /dev /newroot/dev
exec switch_root /newroot "$stage2"
