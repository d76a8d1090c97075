#!/usr/bin/env bash
# The whole test suite (docs/testing.md says what each phase proves and how long it takes): unit,
# protocol, golden replays of the recordings in data/, the CLI, the daemon against real gpsd,
# every kept fuzz input replayed (libFuzzer's own run with FUZZ=1), the control socket under a flood, the phone
# link end to end (Tests/phone-link; PHONE_E2E=0), audio cues on a real PulseAudio (Tests/cues;
# CUES_E2E=0), the relay on a real PostgreSQL (Tests/relay; RELAY_E2E=0), the dashboard in a real
# browser (Tests/dashboard; DASHBOARD_E2E=0), exports read back (Tests/export; EXPORT_E2E=0), the demo
# where it cannot work (Tests/demo; DEMO_E2E=0), the Bluetooth end to end on a real Linux stack in a
# VM (scripts/ble-e2e.sh; BLE_E2E=0), beside bluetoothd (scripts/ble-coexist-e2e.sh; BLE_COEXIST=0),
# cues in Bluetooth headphones (scripts/cues-a2dp-e2e.sh; CUES_A2DP=0), a barometer and an IMU
# through the kernel's drivers on an I2C stub (scripts/iio-e2e.sh; IIO_E2E=0), with footpods and
# treadmills beside the strap
# (scripts/sensors-e2e.sh; SENSORS_E2E=0), the unit tests on arm64 under qemu-user
# (scripts/test-arm64.sh; ARM64_TESTS=0). Two phases are left out unless asked for, because from
# nothing on a 2-core machine they double the suite (docs/testing.md): libFuzzer's run over every
# parser (FUZZ=1) and the arm64 packages on a virtual Raspberry Pi with their release build
# (scripts/pi-e2e.sh; PI_E2E=1; the amd64 virtual wearable, scripts/wearable-e2e.sh, with
# WEARABLE_E2E=1). Everything it needs is in the repository or comes from a registry by name.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each phase's wall time, for keeping the whole well under CI's 90 minutes.
suite_began=$(date +%s) mark_at=$(date +%s)
mark() { echo "test.sh: $1 took $(($(date +%s) - mark_at)) s (suite at $(($(date +%s) - suite_began)) s)"; mark_at=$(date +%s); }
# What the tests need (gpsd, gpsfake, the -dev packages, the Python parsers and peers): the same
# idempotent setup the demo runs, seconds when all is there, so this command works alone.
scripts/setup.sh
# Formatting and lint first: seconds, and the style is part of the contract (.swift-format).
swift format lint --strict --recursive --parallel Package.swift Sources Tests
# Package.swift says the truth: each target declares exactly the modules it imports.
scripts/check-package-deps.py
# The repository is enough: nothing the suite runs reads a folder beside the checkout.
if grep -rlE '\.\./shared' .ci scripts Tests Sources Makefile; then
    echo "test.sh: the files above read a folder beside the checkout, which a clone does not have" >&2
    exit 1
fi
# The relay's migrations embedded in the phone's binary are the SQL files of relay/migrations.
scripts/embed-migrations.py --check
swift build --build-tests
mark "setup, lint and the build"
# The arm64 builds (the cross toolchain, scripts/arm64-toolchain.sh, about 3 min and 1 GB the first
# time; the arm64 test bundle, scripts/test-arm64.sh --build-only; with PI_E2E=1 first the
# deployment build of both programs, scripts/build-release.sh --arch arm64, with the accuracy bench
# when ARM64_ACCURACY compares its table), started now in the background on what the phases after it
# leave idle: the end-to-end phases spend most of their time waiting on sockets, clocks and peers
# (measured, share of the machine busy: phone link 6 %, relay 10 %, cues 12 %, dashboard 33 %), and
# the strap's, bluetoothd's and the headphones' VMs mostly wait on their guests' clocks. They run in
# a session of their own whose autogroup is niced to 19: with autogroups (on in Debian's kernel) a
# plain `nice` ranks a process only within its own session, and tests that start their children in
# new sessions would share the machine with it half and half. Waited for before the arm64 phases and
# the sensors VM; without the run's mark, so no-leftovers does not count it; killed if the suite
# stops early. A failure here is not the suite's: the arm64 phases build again and say why.
prebuild_pid=
arm64_chain=scripts/arm64-toolchain.sh
if [ "${PI_E2E:-0}" != 0 ]; then
    # The accuracy bench's arm64 build only when its table is compared (ARM64_ACCURACY, off by default).
    arm64_products="wearbridge wearbridge-phone"
    [ "${ARM64_ACCURACY:-0}" = 0 ] || arm64_products="$arm64_products wearbridge-bench"
    arm64_chain="$arm64_chain && RELEASE_PRODUCTS=\"$arm64_products\" scripts/build-release.sh --arch arm64"
fi
[ "${ARM64_TESTS:-1}" = 0 ] || arm64_chain="$arm64_chain && scripts/test-arm64.sh --build-only"
export arm64_chain
if [ "${ARM64_TESTS:-1}" != 0 ] || [ "${PI_E2E:-0}" != 0 ]; then
    env -u WEARBRIDGE_TEST_RUN setsid -w bash -c '
        echo 19 > /proc/self/autogroup
        began=$(date +%s)
        nice -n 19 ionice -c 3 bash -c "$arm64_chain"
        echo "exit $? after $(($(date +%s) - began)) s"' > .build/arm64-prebuild.log 2>&1 &
    prebuild_pid=$!
fi
relay_pid=
trap '[ -z "$prebuild_pid" ] || { kill -- "-$prebuild_pid"; kill -CONT -- "-$prebuild_pid"; } 2>/dev/null || true
    [ -z "$relay_pid" ] || kill -- "-$relay_pid" 2>/dev/null || true' EXIT
# builds STOP|CONT: holds the background builds for a phase on real clocks, then lets them go on.
builds() { [ -z "$prebuild_pid" ] || kill "-$1" -- "-$prebuild_pid" 2>/dev/null || true; }
# Every process the suite starts carries this mark; none may outlive it (scripts/no-leftovers.sh).
WEARBRIDGE_TEST_RUN="run-$$-$(date +%s)"
export WEARBRIDGE_TEST_RUN
status=0
swift test --skip-build || status=$?
scripts/no-leftovers.sh || status=1
mark "swift test"
[ "$status" -eq 0 ] || exit "$status"
# Every fuzz input kept (the seeds, and each input that once crashed a parser, in Fuzz/regressions)
# and gpsd's regression logs, through the ordinary build's replay of the fuzz entry points.
for target in gpsd att gatt payloads control config link speech; do
    inputs=()
    for dir in "Fuzz/seeds/$target" "Fuzz/regressions/$target"; do [ -d "$dir" ] && inputs+=("$dir"); done
    [ "$target" = gpsd ] && inputs+=(data/gps-corpus)
    [ "$target" = config ] && inputs+=(config)
    [ "${#inputs[@]}" -eq 0 ] || .build/debug/wearbridge-fuzz "$target" "${inputs[@]}" || status=1
done
[ "$status" -eq 0 ] || exit "$status"
# libFuzzer over every parser (scripts/fuzz.sh: the sanitized build, about 8 min from scratch, then a
# fixed number of inputs per target from a fixed seed, about 2 min), with FUZZ=1: it searches for
# new inputs rather than checking known ones, which the replay above does.
if [ "${FUZZ:-0}" != 0 ]; then
    FUZZ_RUNS=ci scripts/fuzz.sh all || status=$?
    scripts/no-leftovers.sh || status=1
    mark "libFuzzer"
    [ "$status" -eq 0 ] || exit "$status"
fi
# The control socket under a flood against the real daemon: 3000 connections sending garbage; the
# daemon holds its cap, its memory and journal stay bounded, status answers (about 20 s).
python3 Tests/control/flood.py || status=$?
scripts/no-leftovers.sh || status=1
mark "control flood"
[ "$status" -eq 0 ] || exit "$status"
# The virtual-run relay's contract on a real PostgreSQL 15 with certificate authentication: the race
# commands, row-level security, plausibility, expiry, abandonment, and two real wearables racing
# through their phones with faults (RELAY_E2E=0 leaves it out). Its race test puts the dashboard's
# race panel in a real browser (a screenshot beside the dashboard's). It runs in the background
# beside the next phases (the phone link, the cues, the exports, the demo), which like it spend
# their time waiting on sockets, clocks and peers (share of the machine busy: relay 10 %, phone
# link 6 %, cues 12 %), its output kept in .build/relay-phase.log and printed when it ends. The
# arm64 builds are stopped meanwhile: beside them this phase took 451 s instead of 358 s, and its
# two wearables racing on real clocks missed their result's deadline.
if [ "${RELAY_E2E:-1}" != 0 ]; then
    builds STOP
    relay_began=$(date +%s)
    # A mark of its own, so that the other phases' no-leftovers does not count its processes.
    # A session of its own, whose processes are ended with the suite's if it stops early.
    DASHBOARD_SHOTS="${DASHBOARD_SHOTS:-$(pwd)/.build/dashboard-shots}" WEARBRIDGE_TEST_RUN="$WEARBRIDGE_TEST_RUN-relay" \
        setsid python3 Tests/relay/run.py > .build/relay-phase.log 2>&1 &
    relay_pid=$!
fi
# The relay's phase: waited for, its output printed, the builds let go on.
relay_done() {
    [ -n "$relay_pid" ] || return 0
    local relay_status=0
    wait "$relay_pid" || relay_status=$?
    relay_pid=
    builds CONT
    cat .build/relay-phase.log
    echo "test.sh: relay took $(($(date +%s) - relay_began)) s, beside the phases above (exit $relay_status)"
    WEARBRIDGE_TEST_RUN="$WEARBRIDGE_TEST_RUN-relay" scripts/no-leftovers.sh || relay_status=1
    [ "$relay_status" -eq 0 ] || status=$relay_status
}
# A phase that fails waits for the relay's before the suite stops.
stop_if_failed() { [ "$status" -eq 0 ] || { relay_done; exit "$status"; }; }
# The phone link end to end: both programs over real TLS, a fault proxy, kill -9, bad peers, a
# Python grpcio phone, a lossy network namespace (PHONE_E2E=0 leaves it out).
if [ "${PHONE_E2E:-1}" != 0 ]; then
    python3 Tests/phone-link/run.py || status=$?
    scripts/no-leftovers.sh || status=1
    mark "phone link"
    stop_if_failed
fi
# Audio cues end to end: a real PulseAudio with role ducking, music, the daemon's cues recorded
# from the sink's monitor, the server killed and hung; ALSA through its file plugin (CUES_E2E=0
# leaves it out).
if [ "${CUES_E2E:-1}" != 0 ]; then
    python3 Tests/cues/run.py || status=$?
    scripts/no-leftovers.sh || status=1
    mark "cues"
    stop_if_failed
fi
# Exports read back by independent parsers (xmllint with the GPX schema, gpxpy, tcxreader, Garmin's
# FIT SDK, fitdecode) against the data log (EXPORT_E2E=0 leaves it out).
if [ "${EXPORT_E2E:-1}" != 0 ]; then
    python3 Tests/export/run.py || status=$?
    mark "exports"
    stop_if_failed
fi
# The README's first command where it cannot work: no recording, gpsd's port taken, no programs, a
# log gpsfake cannot play, a receiver without a fix; each stops within seconds with one line, using
# the debug build's programs (DEMO_E2E=0).
if [ "${DEMO_E2E:-1}" != 0 ]; then
    WEARBRIDGE_BIN="$(pwd)/.build/debug" python3 Tests/demo/run.py || status=$?
    scripts/no-leftovers.sh || status=1
    mark "demo where it cannot work"
    stop_if_failed
fi
relay_done
scripts/no-leftovers.sh || status=1
mark "the relay beside the phone link, the cues, the exports and the demo"
[ "$status" -eq 0 ] || exit "$status"
# The field dashboard in a real browser (Debian's chromium through chromedriver and selenium) against a
# real wearable, phone and dashboard; schemathesis fuzzes its API from the OpenAPI document
# (DASHBOARD_E2E=0 leaves it out).
if [ "${DASHBOARD_E2E:-1}" != 0 ]; then
    DASHBOARD_SHOTS="${DASHBOARD_SHOTS:-$(pwd)/.build/dashboard-shots}" python3 Tests/dashboard/run.py || status=$?
    scripts/no-leftovers.sh || status=1
    mark "dashboard"
    [ "$status" -eq 0 ] || exit "$status"
fi
# The strap's and the headphones' VMs run while the arm64 builds finish: their guests mostly wait on
# their own clocks, and their qemu (this session's autogroup) takes the CPU before the builds
# (theirs, niced to 19) whenever it wants it; measured, each kept its time. bluetoothd's VM holds
# the builds: its guest polls the daemon several times a second through short-lived programs
# (`ctl status`, python3) that all run emulated, and beside the builds one run took 435 s, past its
# 420 s deadline, where it takes 250 s alone. The sensors VM waits for the builds: it learns a
# footpod's calibration from the guest's timing, which a shared CPU spoils.
if [ "${BLE_E2E:-1}" != 0 ]; then
    scripts/ble-e2e.sh || status=$?
    scripts/no-leftovers.sh || status=1
    mark "Bluetooth VM"
    [ "$status" -eq 0 ] || exit "$status"
fi
# The same VM with the system D-Bus and bluetoothd up, as on a Pi: a desktop's discovery during
# first-seen, another program connecting the strap first and disconnecting it, another program
# holding its notifications, the kernel's path told busy, a strap that demands bonding
# (scripts/ble-coexist-e2e.sh; BLE_COEXIST=0 leaves it out).
if [ "${BLE_COEXIST:-1}" != 0 ]; then
    builds STOP
    scripts/ble-coexist-e2e.sh || status=$?
    builds CONT
    scripts/no-leftovers.sh || status=1
    mark "Bluetooth VM beside bluetoothd"
    [ "$status" -eq 0 ] || exit "$status"
fi
# Cues in Bluetooth headphones: btvirt's BR/EDR controllers in the same VM, Bumble's A2DP sink as the
# headphones, bluez-alsa as the source; the cue decoded at the far side, then the headphones gone
# (scripts/cues-a2dp-e2e.sh; CUES_A2DP=0 leaves it out).
if [ "${CUES_A2DP:-1}" != 0 ]; then
    scripts/cues-a2dp-e2e.sh || status=$?
    scripts/no-leftovers.sh || status=1
    mark "cues in Bluetooth headphones"
    [ "$status" -eq 0 ] || exit "$status"
fi
# A barometer and an IMU through the kernel's real drivers, in the same VM: i2c-stub as the bus,
# bmp280 bound to it and a climb written into its registers while gpsfake plays a run; then bmi160
# bound to it and a gait written at 100 Hz, read buffered by the daemon through an hrtimer trigger
# in an indoor session; each sensor removed and added back, the IMU's CPU against off
# (scripts/iio-e2e.sh; IIO_E2E=0 leaves it out).
if [ "${IIO_E2E:-1}" != 0 ]; then
    scripts/iio-e2e.sh || status=$?
    scripts/no-leftovers.sh || status=1
    mark "IIO VM: barometer and IMU"
    [ "$status" -eq 0 ] || exit "$status"
fi
arm64_built=
if [ -n "$prebuild_pid" ]; then
    # Never waited for without end: a build still running after ARM64_BUILD_WAIT seconds (30 min) of
    # this wait is stopped, and the arm64 phases build again in the foreground and say why.
    builds CONT
    waited=0
    while kill -0 "$prebuild_pid" 2>/dev/null && [ "$waited" -lt "${ARM64_BUILD_WAIT:-1800}" ]; do
        sleep 5
        waited=$((waited + 5))
    done
    kill -0 "$prebuild_pid" 2>/dev/null && {
        echo "test.sh: the background arm64 builds were still running after $waited s of waiting: stopped"
        kill -- "-$prebuild_pid" 2>/dev/null || true
    }
    wait "$prebuild_pid" || true
    prebuild_pid=
    echo "test.sh: the background arm64 builds: $(tail -1 .build/arm64-prebuild.log)"
    case "$(tail -1 .build/arm64-prebuild.log)" in "exit 0 "*) arm64_built=--skip-build ;; esac
    mark "waiting for the arm64 builds"
fi
# The unit tests on arm64 under qemu-user (the pure cores and parsers; scripts/test-arm64.sh;
# ARM64_TESTS=0 leaves it out). The accuracy bench's table on arm64 against this machine's is a
# benchmark (8 min under qemu-user; docs/benchmarks.md), run with ARM64_ACCURACY=1 or full.
if [ "${ARM64_TESTS:-1}" != 0 ]; then
    ARM64_ACCURACY="${ARM64_ACCURACY:-0}" scripts/test-arm64.sh $arm64_built || status=$?
    mark "arm64 unit tests"
    [ "$status" -eq 0 ] || exit "$status"
fi
# Footpods and treadmills on the same VM: a virtual footpod (drops, cut-short payloads) and
# treadmill (a workout) beside the strap; `wearbridge sensor`, then the daemon's indoor session,
# checked against every payload sent, and a tunnel through a real gpsd (scripts/sensors-e2e.sh;
# SENSORS_E2E=0 leaves it out).
if [ "${SENSORS_E2E:-1}" != 0 ]; then
    scripts/sensors-e2e.sh || status=$?
    scripts/no-leftovers.sh || status=1
    mark "sensors VM"
    [ "$status" -eq 0 ] || exit "$status"
fi
# The virtual Raspberry Pi: the arm64 packages (scripts/package.sh --arch arm64: the release build,
# lintian) installed in a fresh Debian 13 arm64 booted under qemu-system-aarch64 with its own kernel:
# the GPS on the Pi's UART, the strap's controller on a serial line, a sound card recorded to a WAV,
# the arm64 phone on the host, the power cut mid-session, upgrade and purge (PI_E2E=1: from nothing
# its release build and Debian base take about 30 min of this machine; docs/testing.md).
if [ "${PI_E2E:-0}" != 0 ]; then
    scripts/pi-e2e.sh || status=$?
    scripts/no-leftovers.sh || status=1
    mark "virtual Raspberry Pi"
    [ "$status" -eq 0 ] || exit "$status"
fi
# The same on amd64 (Debian 12, a USB serial GPS; scripts/wearable-e2e.sh), by hand or WEARABLE_E2E=1:
# the Pi covers what it proves but the architecture.
[ "${WEARABLE_E2E:-0}" = 0 ] || {
    scripts/wearable-e2e.sh && scripts/no-leftovers.sh || status=1
    mark "virtual wearable (amd64)"
}
exit "$status"
