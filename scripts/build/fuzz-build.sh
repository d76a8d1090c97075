#!/usr/bin/env bash
# wearbridge-fuzz, built for libFuzzer with AddressSanitizer (-sanitize=fuzzer,address, -DFUZZING)
# into its own scratch path, .build-fuzz. Prints the binary's path last. scripts/rigs/fuzz.sh runs
# it; the suite's fuzz phase (Tests/fuzz) too.
set -euo pipefail
cd "$(dirname "$0")/../.."
log=.build-fuzz/build.log
mkdir -p .build-fuzz
swift build --scratch-path .build-fuzz --product wearbridge-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING > "$log" 2>&1 || {
    tail -30 "$log" >&2
    echo "fuzz-build.sh: the sanitized build failed; its log: $log" >&2
    exit 1
}
echo "$(pwd)/.build-fuzz/debug/wearbridge-fuzz"
