#!/usr/bin/env bash
# The unit tests on arm64: the test build made by Debian's Swift for aarch64 (scripts/build/arm64-toolchain.sh)
# and run under qemu-user, so that an endianness, alignment or Foundation difference shows up as a
# failing test here, not on a Pi. The suites are the pure cores' and the parsers' (ARM64_SUITES),
# which need nothing but the test process; with ARM64_ACCURACY=1 the accuracy bench's table on arm64
# (release) is compared with this machine's, figure by figure (a benchmark: 8 min under qemu-user).
#
#   scripts/build/arm64-tests.sh               # builds .build-arm64-tests, runs the suites
#   scripts/build/arm64-tests.sh --build-only  # the build alone
#   scripts/build/arm64-tests.sh --skip-build  # the suites of the build already made
#
# The bundle is built optimized (-c release, with -enable-testing for the suites' @testable
# imports), as the programs a Pi runs are: the optimizer's code on arm64 is what ships, and under
# qemu-user it runs the suites in about 90 s where the debug build takes about 290 s (the debug
# build is about a minute shorter to make: 274 s against 340 s from clean, alone).
# Debian's swift-testing has no lib_Testing_Foundation.so (-disable-cross-import-overlays) and its
# static runtime no Testing module, so the tests link Swift's shared runtime, which the sysroot holds
# (LD_LIBRARY_PATH under qemu-user).
set -euo pipefail
cd "$(dirname "$0")/../.."
began=$(date +%s)
scripts/build/arm64-toolchain.sh > /dev/null
sysroot=$(scripts/build/arm64-toolchain.sh --sysroot)
# The pure cores and the parsers: every suite of these test targets, and only these built
# (WEARBRIDGE_TEST_TARGETS, read by Package.swift), so that the bundle compiles none of the
# adapters' dependencies (gRPC, BoringSSL, GRDB, Hummingbird) it would not run.
# Not among them: the cue adapters' suites (CueAudioTests), which time child processes against
# wall-clock deadlines (a hung synthesizer or player killed within its deadline) that qemu-user's
# start-up of each child stretches (a 10 s deadline met in 10.7 s, a 60 s one in 126 s); they are
# adapters' timing, not a core's arithmetic, and the amd64 suite holds them.
suites=${ARM64_SUITES:-TrackCoreTests ElevationTests EnergyTests GaitTests CourseTests EngineTests SessionCoreTests CuesTests ExportTests SpeedSensorsTests StrideCalibrationTests RaceCoreTests RelayContractTests PhoneRaceCoreTests PhoneCoreTests PhoneLinkDeliveryTests PhoneLinkWireTests GPSDTests HeartRateTests ATTTests GATTTests BluetoothTests ReplayTests UTCFormatTests}
if [ "${1:-}" != --skip-build ]; then
    # Its scratch path in the toolchain's cache, as the deployment build's (scripts/build/build-release.sh).
    scratch=$(scripts/build/arm64-toolchain.sh --scratch tests .build-arm64-tests)
    WEARBRIDGE_TEST_TARGETS=$suites scripts/build/arm64-toolchain.sh --swift-build -c release --product wearbridgePackageTests \
        --scratch-path "$scratch" -Xswiftc -enable-testing \
        -Xswiftc -Xfrontend -Xswiftc -disable-cross-import-overlays
    echo "arm64-tests.sh: the arm64 test build took $(($(date +%s) - began)) s"
fi
built=$(date +%s)
[ "${1:-}" = --build-only ] && exit 0

filters=()
for suite in $suites; do filters+=(--filter "^$suite\\."); done
aarch64() {
    QEMU_LD_PREFIX=$sysroot LD_LIBRARY_PATH=$sysroot/usr/libexec/swift/lib/swift/linux qemu-aarch64-static "$@"
}
log=.build-arm64-tests/arm64-tests.log
status=0
aarch64 .build-arm64-tests/release/wearbridgePackageTests.xctest --testing-library swift-testing "${filters[@]}" \
    > "$log" 2>&1 || status=$?
grep -E '^(✘|✔ Test run|✘ Test run)|recorded an issue|Test run with' "$log" | tail -40 || true
[ "$status" -eq 0 ] || {
    echo "arm64-tests.sh: the unit tests failed on arm64 (exit $status); the whole log: $log" >&2
    exit "$status"
}
echo "arm64-tests.sh: the unit tests on arm64 took $(($(date +%s) - built)) s"

# The accuracy bench on both architectures: the same table, but for its timings. The arm64 one is
# the release build (the deployment build's flags; under qemu-user a debug build takes half an
# hour), this machine's the debug build the suite made: equal tables also say the optimizer
# changed no figure.
if [ "${ARM64_ACCURACY:-0}" != 0 ]; then
    RELEASE_PRODUCTS=wearbridge-bench scripts/build/build-release.sh --arch arm64 > /dev/null
    [ -x .build/debug/wearbridge-bench ] || swift build --product wearbridge-bench
    strip_times() { sed -E 's/[0-9.]+ ms/- ms/g; s/slowest replay [^)]*/slowest replay -/'; }
    # The sessions' table; gpsd's corpus too with ARM64_ACCURACY=full (8 min more under qemu-user).
    scope=(--skip-corpus)
    [ "${ARM64_ACCURACY:-0}" = full ] && scope=()
    .build/debug/wearbridge-bench accuracy "${scope[@]}" 2>&1 | strip_times > .build-arm64-tests/accuracy-amd64.txt
    QEMU_LD_PREFIX=$sysroot qemu-aarch64-static .build-arm64/release/wearbridge-bench accuracy "${scope[@]}" 2>&1 | strip_times \
        > .build-arm64-tests/accuracy-arm64.txt
    if ! diff -u .build-arm64-tests/accuracy-amd64.txt .build-arm64-tests/accuracy-arm64.txt; then
        echo "arm64-tests.sh: the accuracy bench's table differs on arm64 (above)" >&2
        exit 1
    fi
    echo "arm64-tests.sh: the accuracy tables on arm64 and amd64 are equal ($(wc -l < .build-arm64-tests/accuracy-arm64.txt) lines)"
fi
echo "arm64-tests.sh: all done in $(($(date +%s) - began)) s"
