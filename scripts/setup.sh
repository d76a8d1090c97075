#!/usr/bin/env bash
# Installs what wearbridge needs on Debian 12: gpsd and its clients (gpsd itself, gpsfake, gpspipe)
# for the demo and the integration tests, SQLite's headers for GRDB, python3 (gpsfake and test
# helpers), strace (the fsync figure of the daemon benchmark), systemd (systemd-analyze checks the unit),
# libbluetooth-dev and pkg-config (the Bluetooth module links BlueZ's libbluetooth). The Bluetooth
# end-to-end test installs its own VM packages (qemu, bluez; ../shared/ble-vm/README.md).
# Swift 6.2+ must already be on PATH (the toolchain is not a Debian package).
set -euo pipefail
packages=(gpsd gpsd-clients libsqlite3-dev libbluetooth-dev pkg-config python3 strace coreutils util-linux systemd)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq "${missing[@]}"
fi
command -v swift >/dev/null 2>&1 || { echo "swift is not on PATH: install Swift 6.2 or later" >&2; exit 1; }
