#!/usr/bin/env bash
# The whole test suite: unit, protocol, golden replays of ../shared recordings, and the CLI.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d ../shared/benchmarks ] || { echo "../shared/benchmarks is missing: tests replay its recordings" >&2; exit 1; }
swift build --build-tests
swift test --skip-build
