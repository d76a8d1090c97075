#!/usr/bin/env bash
# The daemon's footprint with the phone link and cues on, beside gpsd, from the deployment build
# (scripts/bench/footprint.py says what is measured), and the libraries' floor (wearbridge-floor)
# beside them. Fails when a figure is past its goal.
# Needs root (the breakdown reads /proc/PID/pagemap).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=$(dirname "$(RELEASE_PRODUCTS="wearbridge wearbridge-phone wearbridge-floor" scripts/build/build-release.sh | tail -1)")
WEARBRIDGE_BIN="$BIN" python3 scripts/bench/footprint.py
