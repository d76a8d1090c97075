#!/usr/bin/env bash
# The whole suite, and what CI runs (docs/testing.md says what each phase proves and how long it
# takes): installs what the tests need, checks the sources' form, builds, runs the Swift suites
# (`swift test`), then the end-to-end phases (pytest: one phase per folder of Tests/, selected by its
# marker, the phases side by side on workers of their own, the longest first), and prints the table
# of what each took. Everything it needs is in the repository or comes from a registry by name.
#
#   scripts/test.sh                    every check a release needs
#   scripts/test.sh -m "not root"      what needs no root (no VMs, chroots or qemu-user)
#   scripts/test.sh -m "relay or cues" some phases (pytest's arguments, after the Swift suites)
#   python3 -m pytest -m relay -k identity   one test, once the debug build is made
set -euo pipefail
cd "$(dirname "$0")/.."
results=.build/test-results
mkdir -p "$results"
rm -f "$results/figures.jsonl"
export WEARBRIDGE_TEST_STEPS=$results/steps.tsv
: > "$WEARBRIDGE_TEST_STEPS"
at=$(date +%s)
step() {
    local now
    now=$(date +%s)
    printf '%s\t%s\n' "$1" $((now - at)) >> "$WEARBRIDGE_TEST_STEPS"
    echo "test.sh: $1 took $((now - at)) s"
    at=$now
}
# What the tests need (gpsd, gpsfake, the -dev packages, the Python parsers, peers and the runner):
# the same idempotent setup the demo runs, seconds when all is there.
scripts/setup.sh
step setup
# The form of the sources: swift-format's lint (.swift-format); every target declares exactly the
# modules it imports; the relay's migrations embedded in the phone's binary are relay/migrations';
# nothing the suite runs reads a folder beside the checkout (the repository is enough).
swift format lint --strict --recursive --parallel Package.swift Sources Tests
scripts/build/check-package-deps.py
scripts/build/embed-migrations.py --check
if grep -rlE '\.\./shared' .ci scripts Tests Sources Makefile pytest.ini; then
    echo "test.sh: the files above read a folder beside the checkout, which a clone does not have" >&2
    exit 1
fi
step lint
# With the builds' own few environment variables (Tests/rigs/builds.py says why and lists them), as
# the end-to-end phases run their builds and this one again.
mapfile -t kept < <(python3 Tests/rigs/builds.py --environment)
env -i "${kept[@]}" swift build --build-tests
step build
# Every process the suite starts carries this mark; none may outlive it (scripts/rigs/no-leftovers.sh).
export WEARBRIDGE_TEST_RUN="run-$$-$(date +%s)"
swift test --skip-build --xunit-output "$results/swift.xml"
scripts/rigs/no-leftovers.sh
step "swift test"
status=0
python3 -m pytest "$@" || status=$?
scripts/rigs/no-leftovers.sh || status=1
exit "$status"
