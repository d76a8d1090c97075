#!/usr/bin/env bash
# Wearable-to-wearable latency in a race (README, "Virtual runs: figures"): from a snapshot's commit
# in one wearable's data log to its arrival in the other wearable's engine, through both phones and
# a local relay, p50 and p99 over loopback, deployment build.
#   scripts/bench-race-latency.sh [SECONDS=120]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-release.sh >/dev/null
WEARBRIDGE_BIN=$(pwd)/.build-static/release exec python3 scripts/bench_race_latency.py "${1:-120}"
