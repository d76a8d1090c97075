#!/usr/bin/env python3
"""The body of scripts/bench-race-latency.sh: a wearable's snapshot, from its commit in the wearable's
data log to its arrival in the partner wearable's engine, through both phones and a local relay
(loopback), for every snapshot of a race of SECONDS; both directions. Each wearable traces (with
--latency-trace) its committed snapshots and the partner snapshots it takes in, by GPS time, on
this machine's one wall clock."""
import os
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "phone-link"))
sys.path.insert(0, os.path.join(ROOT, "Tests", "relay"))
import harness  # noqa: E402
import race_day  # noqa: E402
from run import Relay, count, start_race  # noqa: E402


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def read(path, what):
    out = {}
    for line in open(path):
        fields = line.split()
        if len(fields) == 3 and fields[0] == what:
            out.setdefault(round(float(fields[1]), 1), float(fields[2]))
    return out


def main():
    seconds = int(sys.argv[1]) if len(sys.argv) > 1 else 120
    relay = Relay()
    alice, bob = race_day.Runner(relay, "alice"), race_day.Runner(relay, "bob")
    try:
        with relay.connect("alice") as conn:
            run = start_race(relay, "alice", "bob", "--start-in", "50s")
            start_at = count(conn, "SELECT start_at FROM relay.runs WHERE id = %s", run).timestamp()
        park = os.path.join(race_day.GPS, "park_loop_run.nmea")
        race_day.set_off(start_at, [(alice, park, 0), (bob, park, 300)], trace=True)
        traces = {runner.name: runner.trace for runner in (alice, bob)}
        race_day.sleep_until(start_at + seconds)
    finally:
        harness.stop_all()
        relay.stop()
    latencies, counts = [], {}
    for sender, receiver in (("alice", "bob"), ("bob", "alice")):
        committed = read(traces[sender], "snapshot")
        arrived = read(traces[receiver], "partner")
        legs = [arrived[g] - committed[g] for g in committed if g in arrived]
        counts[sender] = (len(committed), len(legs))
        latencies += legs
    if not latencies:
        print("no snapshot went from one wearable to the other", file=sys.stderr)
        return 1
    ms = [1000 * value for value in latencies]
    print(f"race of {seconds} s, two wearables, two phones, one relay (loopback), deployment build")
    for sender, (made, arrived) in counts.items():
        print(f"  {sender}'s snapshots: {made} committed, {arrived} arrived on the partner's wearable "
              "(newest wins: one overtaken on the way is never sent)")
    print(f"  wearable-to-wearable latency: p50 {percentile(ms, 50):.0f} ms, p99 {percentile(ms, 99):.0f} ms, "
          f"max {max(ms):.0f} ms over {len(ms)} snapshots")
    return 0


if __name__ == "__main__":
    sys.exit(main())
