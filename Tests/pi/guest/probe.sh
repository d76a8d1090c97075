#!/bin/sh
# The test's hand in the guest (not part of wearbridge): runs each request the host drops in
# /mnt/out/requests (N.sh) once, as root, and leaves its output (N.out) and exit status (N.rc).
set -u
dir=/mnt/out/requests
mkdir -p "$dir"
echo "$(cat /proc/sys/kernel/random/boot_id) $(cut -d' ' -f1 /proc/uptime)" > "/mnt/out/probe-ready-$(cat /proc/sys/kernel/random/boot_id)"
while :; do
    for request in "$dir"/*.sh; do
        [ -e "$request" ] || continue
        base=${request%.sh}
        [ -e "$base.rc" ] && continue
        sh "$request" > "$base.out" 2>&1
        echo $? > "$base.rc.part"
        mv "$base.rc.part" "$base.rc"
    done
    sleep 0.2
done
