#!/usr/bin/env bash
# Two runners race each other through a local relay on this machine: scripts/rigs/relay-local.sh makes
# the relay (PostgreSQL 15, certificates for alice and bob); each runner has a wearable (a real gpsd
# fed by gpsfake at a recording's own pace, its GPS time moved to the race; cues on, played to
# ALSA's file plugin) and a phone (`wearbridge-phone run` with [relay]). Alice invites, Bob accepts,
# both wearables count down and start at the agreed instant, each one's `ctl status` shows the
# partner and the gap every 10 s, both end; then every cue each wearable spoke, and the relay's
# result from both sides.  scripts/demo-race.sh [SECONDS=100]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
scripts/build/build-release.sh >/dev/null
WEARBRIDGE_BIN=$(pwd)/.build-static/release exec python3 scripts/rigs/demo-race.py "$@"
