#!/usr/bin/env bash
# Two runners race each other through a local relay on this machine: scripts/relay-local.sh makes
# the relay (PostgreSQL 15, certificates for alice and bob); each runner has a wearable (a real gpsd
# fed by gpsfake with a different recording, moved to the race's start) and a phone
# (`wearbridge-phone run` with [relay]). Alice invites, Bob accepts, both wearables run, each phone
# relays its runner and holds the partner's figures (shown every few seconds), both end, and the
# relay's result is shown from both sides. The wearable's own side of a race (countdown, partner
# cues) is not built yet: README, "Virtual runs".
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
scripts/build-release.sh >/dev/null
WEARBRIDGE_BIN=$(pwd)/.build-static/release exec python3 scripts/demo_race.py "$@"
