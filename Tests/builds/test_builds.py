"""Every build command twice in a row: both succeed, and the second makes nothing anew (a kept build
folder's description once outlived the modules it named, and the second arm64 build of a commit
stopped at "unable to load output file map"). Each build is made first as the phases make it
(Tests/rigs/builds.py: once per run, whichever phase asks first), then run twice here, in the
builds' own environment; what the second builds must be the same file, untouched."""
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


@pytest.mark.timeout(3600)
@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_second_build_succeeds_and_makes_nothing_anew(name):
    first, command, products = COMMANDS[name]
    if first is not None:
        first()
    paths = [os.path.join(ROOT, product) for product in products]
    runs = []
    for attempt in (1, 2):
        before = {path: os.stat(path).st_mtime_ns for path in paths}
        result = builds.run(command, 1800, cwd=ROOT, capture_output=True)
        out = result.stdout + result.stderr
        assert result.returncode == 0, f"{' '.join(command)}, run {attempt}: exit {result.returncode}\n{out[-4000:]}"
        runs.append([os.path.relpath(path, ROOT) for path in paths if os.stat(path).st_mtime_ns != before[path]])
    assert not runs[1], f"{' '.join(command)}, the second run in a row, made {runs[1]} anew:\n{out[-3000:]}"
    return f"{' '.join(command)}: twice in a row; the first remade {runs[0] or 'nothing'}, the second nothing"
