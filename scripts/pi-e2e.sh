#!/usr/bin/env bash
# The virtual Raspberry Pi (Tests/wearable/run.py --arch arm64): the arm64 Debian packages
# (scripts/package.sh --arch arm64: Debian's Swift for aarch64, lintian) installed by apt in a fresh
# Debian 13 arm64 with its own kernel (mmdebstrap; maintainer scripts through qemu-user), booted with
# systemd under qemu-system-aarch64 (TCG): the GPS on the Pi's UART, the strap's controller on a
# serial line as a Pi's own, a sound card recorded to a WAV, the arm64 phone on the host under
# qemu-user, the power cut mid-session. Bumble is the Bluetooth VM's (Tests/vm), kept in
# /var/tmp/ble-vm. Needs root (mmdebstrap, chroot, mounts, binfmt_misc).
#   scripts/pi-e2e.sh                      # builds the packages, then the test
#   PI_E2E_CENSUS=1 scripts/pi-e2e.sh      # the daemon under strace, no filter: its system calls
# Leaves nothing running; its files stay in /var/tmp/pi-vm/run for a look afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(mmdebstrap arch-test qemu-system-arm e2fsprogs python3-venv)
scripts/apt-need.sh --no-install-recommends "${packages[@]}"
mapfile -t debs < <(scripts/package.sh --arch arm64 | tail -2)
census=()
[ "${PI_E2E_CENSUS:-0}" = 1 ] && census=(--census)
exec python3 Tests/wearable/run.py --arch arm64 --debs "${debs[@]}" \
    --ld-prefix "$(scripts/arm64-toolchain.sh --sysroot)" \
    --work "${PI_WORK:-/var/tmp/pi-vm}" "${census[@]}"
