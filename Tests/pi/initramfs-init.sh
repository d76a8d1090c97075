#!/bin/busybox sh
# Stage 1 of the virtual wearable (busybox in a small initramfs): load the disk's and ext4's modules,
# mount the wearable's disk, hand over to systemd. Everything else (sound, USB serial, Bluetooth,
# network) is loaded by udev in the real system, as on a Pi.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for module in $(cat /modules.order); do
    insmod "/lib/modules/$module" || echo "[initramfs] insmod $module failed"
done
i=0
while [ ! -b /dev/vda ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
mkdir -p /newroot
if ! mount -t ext4 -o rw /dev/vda /newroot; then
    echo "[initramfs] cannot mount /dev/vda"
    exec sh
fi
umount /proc /sys
mount --move /dev /newroot/dev
exec switch_root /newroot /sbin/init
