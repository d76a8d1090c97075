#!/usr/bin/env bash
# The phone's cost of the relay (docs/benchmarks.md, "The relay"), deployment build: the same phone
# and wearable (gpsd fed by gpsfake at its real pace) for SECONDS, once in a race through a local
# relay (a psycopg partner posting a snapshot a second) and once with no [relay], alternating for
# ROUNDS; the phone's CPU and peak RSS from /proc, and their ratios, relay on to off.
#   scripts/bench/relay-phone.sh [SECONDS=60] [ROUNDS=2]
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/build/build-release.sh >/dev/null
WEARBRIDGE_BIN=$(pwd)/.build-static/release exec python3 scripts/bench/relay-phone.py "${1:-60}" "${2:-2}"
