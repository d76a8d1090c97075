#!/usr/bin/env bash
# The deployment build of `wearbridge` and `wearbridge-phone`: the Swift runtime linked statically
# (no toolchain needed on the Pi) and lld's packed relative relocations (DT_RELR), which keep the
# relocation tables the loader must touch small, and -z now (full RELRO: every symbol bound at
# start-up, the GOT read-only after it; lintian's hardening-no-bindnow), no exported symbols
# (scripts/build/release-exports.map) so that --gc-sections drops what nothing calls, and the functions a
# running daemon executes packed together first (scripts/build/wearbridge.order, from scripts/build/order-file.py:
# the kernel maps 64 KB around each fault in code, so scattered ones keep most of it resident). The C
# and C++ of the packages (BoringSSL, toml++, NIO's parsers) get a section per function and datum,
# as Swift code has, so that the order and --gc-sections reach into them too. Both programs come from one scratch path, so the
# dependencies are built once. Peak RSS of the daemon at 10 Hz: docs/benchmarks.md.
# Output: .build-static/release/wearbridge (its path is the last line printed), and wearbridge-phone
# beside it. RELEASE_PRODUCTS names others to build the same way (the footprint bench adds
# wearbridge-floor, the libraries' floor it measures the daemon against).
#
#   scripts/build/build-release.sh               # for this machine (Swift on PATH)
#   scripts/build/build-release.sh --arch arm64  # for a Raspberry Pi with a 64-bit OS: Debian's Swift in the
#                                          # cross toolchain (scripts/build/arm64-toolchain.sh, set up when
#                                          # missing); .build-arm64/release/wearbridge
set -euo pipefail
cd "$(dirname "$0")/../.."
arch=native
if [ "${1:-}" = --arch ]; then
    arch=$2
    [ "$arch" = arm64 ] || {
        echo "build-release.sh: --arch takes arm64 (the build for this machine needs no --arch), not $arch" >&2
        exit 64
    }
fi
flags=(-c release --static-swift-stdlib
    -Xcc -ffunction-sections -Xcc -fdata-sections
    -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker -z -Xlinker now
    -Xlinker --version-script="$(pwd)/scripts/build/release-exports.map" -Xlinker --gc-sections
    -Xlinker --symbol-ordering-file="$(pwd)/scripts/build/wearbridge.order" -Xlinker --no-warn-symbol-ordering)
if [ "$arch" = arm64 ]; then
    scripts/build/arm64-toolchain.sh > /dev/null
    # The scratch path is in the toolchain's cache (the dependencies built once per machine);
    # .build-arm64 links to it.
    scratch=$(scripts/build/arm64-toolchain.sh --scratch release .build-arm64)
    for product in ${RELEASE_PRODUCTS:-wearbridge wearbridge-phone}; do
        scripts/build/arm64-toolchain.sh --swift-build "${flags[@]}" --product "$product" --scratch-path "$scratch"
    done
    echo "$(pwd)/.build-arm64/release/wearbridge"
    exit
fi
for product in ${RELEASE_PRODUCTS:-wearbridge wearbridge-phone}; do
    swift build "${flags[@]}" --product "$product" --scratch-path .build-static
done
echo "$(pwd)/.build-static/release/wearbridge"
