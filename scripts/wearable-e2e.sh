#!/usr/bin/env bash
# The virtual wearable (Tests/wearable/run.py): the Debian packages installed in a fresh Debian 12
# (mmdebstrap) and booted with systemd under qemu, with a USB serial GPS, ../shared/ble-vm's virtual
# Bluetooth controller and strap, an emulated sound card recorded to a WAV file, the phone across
# qemu's network, and the power cut mid-session. Needs root (mmdebstrap, chroot, mounts).
#   scripts/wearable-e2e.sh                 # builds the packages (scripts/package.sh), then the test
#   WEARABLE_E2E_CENSUS=1 scripts/wearable-e2e.sh   # the daemon under strace, no filter: its system calls
# Leaves nothing running; its files stay in /var/tmp/wearable-vm/run for a look afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=$(cd ../shared && pwd -P)
[ -x "$SHARED/ble-vm/build-initramfs.sh" ] || { echo "../shared/ble-vm is missing" >&2; exit 1; }
WORK=${WEARABLE_WORK:-/var/tmp/wearable-vm}
# The kernel and the Bumble venv are ../shared/ble-vm's, in its work folder (shared with
# scripts/ble-e2e.sh, which fetches the same).
BLE_WORK=${BLE_WORK:-/var/tmp/ble-vm}
BUMBLE_SPEC=bumble==0.0.236

packages=(mmdebstrap qemu-system-x86 e2fsprogs busybox-static cpio kmod xz-utils python3-venv)
scripts/apt-need.sh --no-install-recommends "${packages[@]}"
KERNEL_PKG=$(apt-cache depends linux-image-6.12-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
[ -n "$KERNEL_PKG" ] || { echo "cannot resolve linux-image-6.12-amd64" >&2; exit 1; }
if [ ! -e "$BLE_WORK/kpkg-$KERNEL_PKG/.done" ]; then
    WORK=$BLE_WORK KERNEL_PKG=$KERNEL_PKG "$SHARED/ble-vm/build-initramfs.sh" >/dev/null
fi
if ! "$BLE_WORK/venv/bin/python" -c 'import bumble' 2>/dev/null; then
    rm -rf "$BLE_WORK/venv"
    python3 -m venv "$BLE_WORK/venv"
    "$BLE_WORK/venv/bin/pip" install -q --disable-pip-version-check "$BUMBLE_SPEC"
fi

mapfile -t debs < <(scripts/package.sh | tail -2)
census=()
[ "${WEARABLE_E2E_CENSUS:-0}" = 1 ] && census=(--census)
exec python3 Tests/wearable/run.py --debs "${debs[@]}" --kernel "$BLE_WORK/kpkg-$KERNEL_PKG" \
    --venv "$BLE_WORK/venv" --work "$WORK" "${census[@]}"
