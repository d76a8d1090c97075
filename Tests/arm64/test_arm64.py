"""The unit tests on arm64: the test bundle of the pure cores' and parsers' suites built by Debian's
Swift for aarch64, optimized as the programs a Pi runs are (scripts/build/arm64-tests.sh), and run
under qemu-user with the trixie arm64 sysroot as its root, so that an endianness, alignment or
Foundation difference shows up here, not on a Pi. The accuracy bench's table on arm64 against this
machine's is a benchmark, selected with -m bench."""
import os
import subprocess

import pytest

import builds
from harness import ROOT


@pytest.fixture(scope="module")
def bundle():
    builds.arm64_test_bundle()


def test_the_cores_suites_pass_on_arm64(bundle):
    result = subprocess.run(["scripts/build/arm64-tests.sh", "--skip-build"], cwd=ROOT, capture_output=True, text=True,
                            timeout=1800)
    assert result.returncode == 0, f"the suites on arm64:\n{result.stdout[-4000:]}{result.stderr[-3000:]}"
    summary = [line for line in result.stdout.splitlines() if "Test run with" in line]
    assert summary and "passed" in summary[-1], result.stdout[-3000:]
    return summary[-1]


@pytest.mark.bench
def test_the_accuracy_table_is_the_same_on_arm64(bundle):
    env = dict(os.environ, ARM64_ACCURACY="1")
    result = subprocess.run(["scripts/build/arm64-tests.sh", "--skip-build"], cwd=ROOT, capture_output=True, text=True,
                            env=env, timeout=3600)
    assert result.returncode == 0, f"the accuracy tables:\n{result.stdout[-4000:]}{result.stderr[-3000:]}"
    return result.stdout.strip().splitlines()[-2:]
