#!/usr/bin/env bash
# The deployment build of `wearbridge` and `wearbridge-phone`: the Swift runtime linked statically
# (no toolchain needed on the Pi) and lld's packed relative relocations (DT_RELR), which keep the
# relocation tables the loader must touch small. Both programs come from one build, so the
# dependencies are built once. Peak RSS of the daemon at 10 Hz: see README, Benchmarks.
# Output: .build-static/release/wearbridge (its path is the last line printed), and wearbridge-phone
# beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
# One invocation for every product (wearbridge-bench too, a few small modules): the build plans
# once and compiles the phone's modules beside the daemon's, so neither core idles at a tail.
swift build -c release --static-swift-stdlib --scratch-path .build-static \
    -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs
echo "$(pwd)/.build-static/release/wearbridge"
