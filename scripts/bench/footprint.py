#!/usr/bin/env python3
"""The daemon's footprint with everything on, beside gpsd, in one run (scripts/bench/footprint.sh
builds the deployment build and calls this).

Four configurations, each on its own gpsd fed tempo_10hz_3k by gpsfake at the recording's own
10 Hz, measured for SECONDS after a WARMUP from the session's start:
  off        no phone link, cues off
  link       the phone link live to a local wearbridge-phone (mutual TLS), cues off
  link+cues  the same, and cues on through ALSA (its null device: no sound card here), a summary
             spoken every 30 s
  floor      not the daemon: wearbridge-floor, the project's libraries doing the least a
             daemon must (read gpsd, decode TPV with JSONDecoder, commit each second durably
             with GRDB) and none of our code; the goals are read against it
For each: the daemon's CPU (with the children it waited for: espeak-ng, aplay) and peak RSS against gpsd's in the same run, and a breakdown of where the
resident memory is (scripts/bench/resident-memory.py). Last, the budget (the footprint goals); a figure past its
goal makes the command fail, so that a regression is seen.

The executable's pages in the page cache are dropped before each configuration (after a sync), so
that they come back as after a boot: read from storage as the daemon faults them in. A file the
linker (or dpkg) has just written sits in the page cache in the large folios its writes made, and
a fault in a large folio maps all of it: 240-330 kB per isolated fault against 64 kB once read back
(this machine's kernel, 6.18 on ext4), which made the daemon's RSS depend on how recently it was
built. BENCH_FOOTPRINT_CACHE=as-written keeps the cache as it is, to compare.

Environment: WEARBRIDGE_BIN (the deployment build's directory), BENCH_FOOTPRINT_SECONDS (120),
BENCH_FOOTPRINT_WARMUP (15), BENCH_FOOTPRINT_JSON (a file for the figures), BENCH_FOOTPRINT_CACHE
(as-booted or as-written)."""
import json
import os
import shutil
import sqlite3
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "Tests", "rigs"))
import harness  # noqa: E402
from harness import DATA, Setup, proc_figures, stop_all, wait_for  # noqa: E402

SECONDS = float(os.environ.get("BENCH_FOOTPRINT_SECONDS", "120"))
WARMUP = float(os.environ.get("BENCH_FOOTPRINT_WARMUP", "15"))
RECORDING = os.path.join(DATA, "gps", "tempo_10hz_3k.nmea")
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))


def _resident_memory():
    """scripts/bench/resident-memory.py, the breakdown of a process's resident pages (its name is
    not a module's)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("resident_memory", os.path.join(HERE, "resident-memory.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


footprint = _resident_memory()

# The footprint goals, for the configuration users run (link and cues on).
BUDGET = {
    "peak_rss_mb": 20.0,           # link+cues, deployment build
    "cpu_vs_gpsd": 1.0,            # link+cues CPU / gpsd's in the same run
    "link_cpu_ratio": 1.2,         # link / off
    "link_and_cues_rss_mb": 3.0,   # link+cues peak RSS - off
}

CUES = """[cues]
enabled = true
output = "alsa"
alsa_device = "null"
summary_every = "30s"
kinds = ["lifecycle", "summary", "splits", "gps", "link"]
"""


def gpsd_of(gpsfake):
    """gpsfake's gpsd: its child process."""
    def child():
        try:
            with open(f"/proc/{gpsfake.pid}/task/{gpsfake.pid}/children") as f:
                pids = f.read().split()
        except OSError:
            return None
        for pid in pids:
            with open(f"/proc/{pid}/comm") as f:
                if f.read().strip() == "gpsd":
                    return int(pid)
        return None
    wait_for(lambda: child() is not None, 20, "gpsfake's gpsd")
    return child()


CACHE = os.environ.get("BENCH_FOOTPRINT_CACHE", "as-booted")


def drop_cached(path):
    """The file's clean pages out of the page cache (none of it may be mapped by a running process)."""
    os.sync()
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def floor_rows(database):
    """Fixes the floor has committed (0 before its first commit)."""
    if not os.path.exists(database):
        return 0
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)
    try:
        return db.execute("SELECT count(*) FROM fix").fetchone()[0]
    except sqlite3.OperationalError:
        return 0
    finally:
        db.close()


def measure(name):
    program = "wearbridge-floor" if name == "floor" else "wearbridge"
    if CACHE == "as-booted":
        drop_cached(os.path.join(harness.BIN, program))
    setup = Setup()
    with open(setup.wear_config) as f:
        config = f.read()
    if name == "off":
        config = config.split("[phone]")[0]
    if name == "link+cues":
        config = config.replace("[cues]\nenabled = false\n", CUES)
    with open(setup.wear_config, "w") as f:
        f.write(config)
    linked = name in ("link", "link+cues")
    if linked:
        setup.phone()
    gpsfake = setup.gpsfake(cycle="0.025", recording=RECORDING)
    gpsd = gpsd_of(gpsfake)
    if name == "floor":
        database = os.path.join(setup.dir, "floor.sqlite")
        wearable = harness.spawn([os.path.join(harness.BIN, program), "127.0.0.1", str(setup.gpsd_port), database],
                                 os.path.join(setup.dir, "floor.log"))
        wait_for(lambda: floor_rows(database) > 0, 60, "the floor's first commit")
    else:
        wearable = setup.wearable()
        wait_for(lambda: os.path.exists(f"{setup.wear_dir}/wearbridge.sqlite") and setup.wear_query(
            "SELECT count(*) FROM session")[0][0] > 0, 60, "a session")
    if linked:
        wait_for(lambda: setup.inbox(), 60, "the link")
    time.sleep(WARMUP)
    (ours0, _), (theirs0, _), t0 = proc_figures(wearable.pid), proc_figures(gpsd), time.monotonic()
    children0, _ = proc_figures(wearable.pid, children=True)
    time.sleep(SECONDS)
    wall = time.monotonic() - t0
    (ours1, our_peak), (theirs1, their_peak) = proc_figures(wearable.pid), proc_figures(gpsd)
    children = proc_figures(wearable.pid, children=True)[0] - children0
    ours, theirs = ours1 - ours0, theirs1 - theirs0
    result = {
        "config": name, "program": program, "seconds": wall, "cache": CACHE,
        # The daemon's CPU counts the children it ran and waited for (espeak-ng, aplay): work moved
        # out of the process is still its work.
        "cpu_percent": 100 * (ours + children) / wall, "own_cpu_percent": 100 * ours / wall,
        "gpsd_cpu_percent": 100 * theirs / wall,
        "peak_rss_mb": our_peak, "gpsd_peak_rss_mb": their_peak,
        "breakdown": footprint.breakdown(wearable.pid, ROOT),
    }
    if name == "floor":
        result["fixes_stored"] = floor_rows(database)
    if name == "link+cues":
        result["cues_spoken"] = setup.wear_query("SELECT count(*) FROM event WHERE kind = 'cue_spoken'")[0][0]
    stop_all()
    harness.PROCESSES.clear()
    shutil.rmtree(setup.dir, ignore_errors=True)
    return result


def main():
    print(f"the executable's page cache: {CACHE}")
    runs = {name: measure(name) for name in ("off", "link", "link+cues", "floor")}
    for name, r in runs.items():
        print(f"{name}: {r['program']} {r['cpu_percent']:.2f}% of a core ({r['own_cpu_percent']:.2f}% its own), peak {r['peak_rss_mb']:.1f} MB;"
              f" gpsd {r['gpsd_cpu_percent']:.2f}%, {r['gpsd_peak_rss_mb']:.1f} MB"
              f" (x{r['cpu_percent'] / r['gpsd_cpu_percent']:.2f} CPU, x{r['peak_rss_mb'] / r['gpsd_peak_rss_mb']:.1f} memory)"
              + (f"; {r['cues_spoken']} cues spoken" if "cues_spoken" in r else "")
              + (f"; {r['fixes_stored']} fixes stored" if "fixes_stored" in r else ""))
        print("\n".join(footprint.table(r["breakdown"])))
    full, off, link = runs["link+cues"], runs["off"], runs["link"]
    figures = {
        "peak_rss_mb": full["peak_rss_mb"],
        "cpu_vs_gpsd": full["cpu_percent"] / full["gpsd_cpu_percent"],
        "link_cpu_ratio": link["cpu_percent"] / off["cpu_percent"],
        "link_and_cues_rss_mb": full["peak_rss_mb"] - off["peak_rss_mb"],
    }
    floor = runs["floor"]
    print(f"above the libraries' floor (wearbridge-floor, {floor['peak_rss_mb']:.1f} MB,"
          f" x{floor['cpu_percent'] / floor['gpsd_cpu_percent']:.2f} of gpsd's CPU):")
    for name in ("off", "link", "link+cues"):
        r = runs[name]
        print(f"  {name:10s} +{r['peak_rss_mb'] - floor['peak_rss_mb']:5.1f} MB,"
              f" x{r['cpu_percent'] / floor['cpu_percent']:.2f} of the floor's CPU")
    over = []
    print("budget (link and cues on, deployment build):")
    for key, goal in BUDGET.items():
        verdict = "ok" if figures[key] <= goal else "OVER"
        if verdict == "OVER":
            over.append(key)
        print(f"  {key:22s} {figures[key]:8.2f}  goal <= {goal:g}  {verdict}")
    if full.get("cues_spoken", 0) < 1:
        over.append("cues_spoken")
        print("  no cue was spoken in the link+cues run: its figures do not count")
    if os.environ.get("BENCH_FOOTPRINT_JSON"):
        with open(os.environ["BENCH_FOOTPRINT_JSON"], "w") as f:
            json.dump({"runs": runs, "figures": figures, "budget": BUDGET, "over": over}, f, indent=1)
    if over:
        print(f"bench-footprint: past the budget: {', '.join(over)}")
        sys.exit(1)


if __name__ == "__main__":
    try:
        main()
    finally:
        stop_all()
