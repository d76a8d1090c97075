#!/usr/bin/env bash
# The virtual wearable (Tests/wearable/run.py): the Debian packages installed in a fresh Debian 12
# (mmdebstrap) and booted with systemd under qemu, with a USB serial GPS, a virtual Bluetooth
# controller and strap (Tests/ble/world.py), an emulated sound card recorded to a WAV file, the phone
# across qemu's network, and the power cut mid-session. The kernel and Bumble are the Bluetooth VM's
# (Tests/vm), kept in /var/tmp/ble-vm. Needs root (mmdebstrap, chroot, mounts).
#   scripts/wearable-e2e.sh                 # builds the packages (scripts/package.sh), then the test
#   WEARABLE_E2E_CENSUS=1 scripts/wearable-e2e.sh   # the daemon under strace, no filter: its system calls
# Leaves nothing running; its files stay in /var/tmp/wearable-vm/run for a look afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(mmdebstrap qemu-system-x86 e2fsprogs busybox-static cpio kmod xz-utils python3-venv)
scripts/apt-need.sh --no-install-recommends "${packages[@]}"
mapfile -t debs < <(scripts/package.sh | tail -2)
census=()
[ "${WEARABLE_E2E_CENSUS:-0}" = 1 ] && census=(--census)
exec python3 Tests/wearable/run.py --debs "${debs[@]}" --work "${WEARABLE_WORK:-/var/tmp/wearable-vm}" "${census[@]}"
