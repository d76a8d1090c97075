#!/usr/bin/env bash
# Audio cue figures from a release build, in one run (scripts/bench/cues.py says which).
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --product wearbridge >/dev/null
export WEARBRIDGE_BIN="$(pwd)/.build/release"
export WEARBRIDGE_TEST_RUN="bench-cues-$$"
python3 scripts/bench/cues.py
