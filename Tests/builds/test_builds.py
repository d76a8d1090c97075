"""Every build command, run again on the build it made: a second build of the same commit must
succeed and make nothing anew (a kept build folder's description once outlived the modules it
named, and the second arm64 build stopped at "unable to load output file map"). Each build is made
first as the phases make it (Tests/rigs/builds.py: once per run, whichever phase asks first), then
run again here; what it builds must be the same file, untouched."""
import os
import subprocess

import pytest

import builds
from harness import ROOT

COMMANDS = {
    # name: (how the phases make it, the command, what it makes)
    "debug": (None, ["swift", "build", "--build-tests"], [".build/debug/wearbridge", ".build/debug/wearbridge-phone"]),
    "fuzzer": (builds.fuzzer, ["scripts/build/fuzz-build.sh"], [".build-fuzz/debug/wearbridge-fuzz"]),
    "arm64-toolchain": (builds.arm64_toolchain, ["scripts/build/arm64-toolchain.sh"], []),
    "arm64-tests": (builds.arm64_test_bundle, ["scripts/build/arm64-tests.sh", "--build-only"],
                    [".build-arm64-tests/release/wearbridgePackageTests.xctest"]),
    "arm64-packages": (builds.arm64_packages, ["scripts/build/package.sh", "--arch", "arm64"],
                       [".build-arm64/release/wearbridge", ".build-arm64/release/wearbridge-phone"]),
    "amd64-packages": (builds.amd64_packages, ["scripts/build/package.sh"],
                       [".build-static/release/wearbridge", ".build-static/release/wearbridge-phone"]),
}


@pytest.mark.timeout(1800)
@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_second_build_succeeds_and_makes_nothing_anew(name):
    first, command, products = COMMANDS[name]
    if first is not None:
        first()
    paths = [os.path.join(ROOT, product) for product in products]
    before = {path: os.stat(path).st_mtime_ns for path in paths}
    result = subprocess.run(builds.background(command), cwd=ROOT, capture_output=True, text=True, timeout=1800)
    out = result.stdout + result.stderr
    assert result.returncode == 0, f"{' '.join(command)} again: exit {result.returncode}\n{out[-4000:]}"
    remade = [os.path.relpath(path, ROOT) for path in paths if os.stat(path).st_mtime_ns != before[path]]
    assert not remade, f"{' '.join(command)} again made {remade} anew:\n{out[-3000:]}"
    return f"{' '.join(command)}: again, {len(paths)} products untouched"
