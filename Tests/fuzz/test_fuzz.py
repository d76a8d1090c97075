"""Every parser of bytes wearbridge does not control, behind one libFuzzer entry
(Sources/Tools/wearbridge-fuzz): every input kept (the seeds, each input that once crashed a parser
in Fuzz/regressions, gpsd's regression logs, the shipped configs) replayed through the suite's
ordinary build, then libFuzzer's own search from a fixed seed over a fixed number of inputs per
target with the sanitized build (scripts/rigs/fuzz.sh), which looks for new inputs rather than
checks known ones. A crash, leak, timeout or sanitizer report fails; libFuzzer leaves the input in
.build-fuzz/findings/TARGET/."""
import os
import subprocess

import pytest

import builds
from harness import BIN, ROOT

TARGETS = ["gpsd", "att", "gatt", "payloads", "control", "config", "link", "speech"]


@pytest.mark.parametrize("target", TARGETS)
def test_every_kept_input_replays(target):
    inputs = [path for path in (f"Fuzz/seeds/{target}", f"Fuzz/regressions/{target}") if os.path.isdir(
        os.path.join(ROOT, path))]
    inputs += {"gpsd": ["data/gps-corpus"], "config": ["config"]}.get(target, [])
    if not inputs:
        pytest.skip(f"no inputs kept for {target}")
    result = subprocess.run([os.path.join(BIN, "wearbridge-fuzz"), target, *inputs], cwd=ROOT, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, f"wearbridge-fuzz {target}: exit {result.returncode}\n" \
                                   f"{result.stdout[-3000:]}{result.stderr[-3000:]}"
    return (result.stdout.strip().splitlines() or [""])[-1]


@pytest.fixture(scope="module")
def fuzzer():
    return builds.fuzzer()


@pytest.mark.parametrize("target", TARGETS)
def test_libfuzzer_finds_nothing(fuzzer, target):
    env = dict(os.environ, FUZZ_RUNS="ci", FUZZ_BINARY=fuzzer)
    result = subprocess.run(["scripts/rigs/fuzz.sh", target], cwd=ROOT, capture_output=True, text=True, env=env,
                            timeout=1200)
    assert result.returncode == 0, f"libFuzzer over {target}:\n{result.stdout[-3000:]}{result.stderr[-2000:]}"
    return result.stdout.strip().splitlines()[-1]
