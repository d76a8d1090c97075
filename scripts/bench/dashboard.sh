#!/usr/bin/env bash
# Dashboard figures from release builds, in one run (scripts/bench/dashboard.py says which).
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --product wearbridge >/dev/null
swift build -c release --product wearbridge-phone >/dev/null
WEARBRIDGE_BIN="$(pwd)/.build/release" python3 scripts/bench/dashboard.py
