#!/usr/bin/env bash
# The deployment build of `wearbridge` and `wearbridge-phone`: the Swift runtime linked statically
# (no toolchain needed on the Pi) and lld's packed relative relocations (DT_RELR), which keep the
# relocation tables the loader must touch small, and -z now (full RELRO: every symbol bound at
# start-up, the GOT read-only after it; lintian's hardening-no-bindnow), no exported symbols
# (scripts/release-exports.map) so that --gc-sections drops what nothing calls, and the functions a
# running daemon executes packed together first (scripts/wearbridge.order, from scripts/order-file.py:
# the kernel maps 64 KB around each fault in code, so scattered ones keep most of it resident). The C
# and C++ of the packages (BoringSSL, toml++, NIO's parsers) get a section per function and datum,
# as Swift code has, so that the order and --gc-sections reach into them too. Both programs come from one scratch path, so the
# dependencies are built once. Peak RSS of the daemon at 10 Hz: docs/benchmarks.md.
# Output: .build-static/release/wearbridge (its path is the last line printed), and wearbridge-phone
# beside it. RELEASE_PRODUCTS names others to build the same way (the footprint bench adds
# wearbridge-floor, the libraries' floor it measures the daemon against).
set -euo pipefail
cd "$(dirname "$0")/.."
for product in ${RELEASE_PRODUCTS:-wearbridge wearbridge-phone}; do
    swift build -c release --static-swift-stdlib --product "$product" --scratch-path .build-static \
        -Xcc -ffunction-sections -Xcc -fdata-sections \
        -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker -z -Xlinker now \
        -Xlinker --version-script="$(pwd)/scripts/release-exports.map" -Xlinker --gc-sections \
        -Xlinker --symbol-ordering-file="$(pwd)/scripts/wearbridge.order" -Xlinker --no-warn-symbol-ordering
done
echo "$(pwd)/.build-static/release/wearbridge"
