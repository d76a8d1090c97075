#!/usr/bin/env bash
# Installs what wearbridge needs on Debian 12: gpsd and its clients (gpsfake, gpspipe).
# Swift 6.2+ must already be on PATH (the toolchain is not a Debian package).
set -euo pipefail
missing=()
for tool in gpsd gpsfake gpspipe; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq gpsd gpsd-clients
fi
command -v swift >/dev/null 2>&1 || { echo "swift is not on PATH: install Swift 6.2 or later" >&2; exit 1; }
