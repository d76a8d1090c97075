#!/usr/bin/env python3
"""Writes scripts/build/wearbridge.order: the functions of the deployment build that a running daemon
executes, for lld's --symbol-ordering-file (scripts/build/build-release.sh). The kernel maps 64 KB of an
executable around each page fault in its code, so functions run now and then, scattered over 33 MB
of code, keep most of it resident; packed together they fill few windows (docs/benchmarks.md, footprint).

How: the configuration users run (scripts/bench/footprint.py's link+cues: a real gpsd fed
tempo_10hz_3k, the phone link live over mutual TLS, cues through ALSA) with the daemon under
valgrind's callgrind, for SECONDS after the session starts, then SIGTERM so that shutdown is in it
too. Every function of our executable with a cost is listed, in the executable's current order
(what sits together now stays together). Usage: order-file.py [SECONDS] (default 90). Needs the
deployment build (scripts/build/build-release.sh; WEARBRIDGE_BIN names another) and valgrind.

What is not in it: the code that feeds `aplay` (see below), and the Bluetooth sensors, which the
bench has none of; each costs a few 64 KB windows when it runs."""
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
os.environ.setdefault("WEARBRIDGE_BIN", os.path.join(HERE, "..", "..", ".build-static", "release"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "Tests", "rigs"))
import harness  # noqa: E402
from harness import Setup, stop_all, wait_for  # noqa: E402


def _bench_footprint():
    """scripts/bench/footprint.py, whose configuration this profiles (its name is not a module's)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench_footprint", os.path.join(HERE, "..", "bench", "footprint.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_BENCH = _bench_footprint()
CUES, RECORDING = _BENCH.CUES, _BENCH.RECORDING

OUTPUT = os.path.join(HERE, "wearbridge.order")


def profile(binary, seconds, out):
    """Runs the link+cues configuration with `binary` as the daemon under callgrind; returns its
    output file."""
    setup = Setup()
    with open(setup.wear_config) as f:
        config = f.read()
    with open(setup.wear_config, "w") as f:
        f.write(config.replace("[cues]\nenabled = false\n", CUES))
    setup.phone()
    setup.gpsfake(cycle="0.025", recording=RECORDING)
    wearable = harness.spawn(
        ["valgrind", "--tool=callgrind", "--demangle=no", "--compress-strings=no", "--compress-pos=no",
         f"--callgrind-out-file={out}", binary, "run", "--config", setup.wear_config],
        os.path.join(setup.dir, "wear.log"))

    def started():
        try:
            return setup.wear_query("SELECT count(*) FROM session")[0][0] > 0
        except sqlite3.Error:  # not created yet, or its schema not yet written
            return False

    # Under valgrind the start takes a minute or more here.
    wait_for(started, 600, "a session")
    wait_for(lambda: setup.inbox(), 300, "the link")
    # A cue synthesised before the measured time begins. Under valgrind the player cannot be
    # started (posix_spawn's closing of every descriptor fails on valgrind's own: EBADF), so a cue
    # ends dropped, and the code that feeds `aplay` is not in the list.
    cues = "SELECT count(*) FROM event WHERE kind IN ('cue_spoken', 'cue_dropped')"
    wait_for(lambda: setup.wear_query(cues)[0][0] > 0, 300, "a cue")
    time.sleep(seconds)
    spoken = setup.wear_query(cues)[0][0]
    os.kill(wearable.pid, signal.SIGTERM)
    wearable.wait(timeout=300)
    stop_all()
    harness.PROCESSES.clear()
    shutil.rmtree(setup.dir, ignore_errors=True)
    print(f"order-file: profiled {seconds:.0f} s after the first cue; {spoken} cues synthesised")
    return out


def executed(callgrind_out, binary):
    """The names of the functions in `binary` that callgrind saw run."""
    names, current_object, current = set(), None, None
    binary = os.path.realpath(binary)
    pattern = re.compile(r"^(ob|fn|cob|cfn|calls)=(.*)$")
    with open(callgrind_out, errors="replace") as f:
        for line in f:
            match = pattern.match(line)
            if match:
                key, value = match.groups()
                if key == "ob":
                    current_object = os.path.realpath(value) if value.startswith("/") else value
                elif key == "fn":
                    current = value if current_object == binary else None
                continue
            if current and line[:1].isdigit():
                names.add(current)
    return names


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 90
    binary = os.path.join(harness.BIN, "wearbridge")
    with tempfile.TemporaryDirectory() as scratch:
        # Valgrind 3.19 cannot read DWARF 5: it runs a copy without debug information, whose symbol
        # table is the same.
        bare = os.path.join(scratch, "wearbridge")
        subprocess.run(["objcopy", "--strip-debug", binary, bare], check=True)
        names = executed(profile(bare, seconds, os.path.join(scratch, "callgrind.out")), bare)
    # The executable's current order: nm's addresses.
    listing = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    address = {}
    for line in listing.splitlines():
        fields = line.split(" ", 2)
        if len(fields) == 3 and fields[1] in "tTwW" and fields[2] in names:
            address.setdefault(fields[2], int(fields[0], 16))
    ordered = sorted(address, key=address.get)
    with open(OUTPUT, "w") as f:
        f.write("\n".join(ordered) + "\n")
    print(f"order-file: {len(ordered)} functions run of {len(names)} named by callgrind -> {OUTPUT}")


if __name__ == "__main__":
    try:
        main()
    finally:
        stop_all()
