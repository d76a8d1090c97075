#!/usr/bin/env bash
# Installs the Debian packages named that are not installed yet (sudo when not root), quietly;
# seconds when all are there. setup.sh, package.sh and the VM rigs say what they need through it.
#   scripts/build/apt-need.sh [--no-install-recommends] PACKAGE...
set -euo pipefail
options=()
if [ "${1:-}" = --no-install-recommends ]; then options+=("$1"); shift; fi
missing=()
for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -gt 0 ] || exit 0
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${options[@]}" "${missing[@]}" >/dev/null
