#!/usr/bin/env python3
"""Phone link figures, release build, one run (scripts/bench/link.sh builds and calls this):
bytes per snapshot (payload, and on the wire with HTTP/2 and TLS), bandwidth per hour at 1 Hz,
delivery latency p50/p99 on loopback, catch-up after an outage, and the wearable daemon's CPU and
RSS with the link live against no phone configured, alternating, as ratios."""
import json
import os
import sqlite3
import statistics
import sys
import time
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "rigs"))
import harness  # noqa: E402
from harness import BIN, DATA, FaultProxy, Setup, kill9, proc_figures, run, stop_all, wait_for  # noqa: E402

SECONDS = float(os.environ.get("BENCH_LINK_SECONDS", "40"))


def daemon_run(with_phone):
    """The daemon for SECONDS on a gpsfake feed: CPU % and peak RSS; with the phone, the wire too."""
    setup = Setup()
    proxy = None
    if with_phone:
        proxy = FaultProxy(setup.phone_port)
        setup.write_wear_config(dial_port=proxy.port)
        setup.phone()
    else:
        with open(setup.wear_config) as f:
            text = f.read().split("[phone]")[0]
        with open(setup.wear_config, "w") as f:
            f.write(text)
    setup.gpsfake(cycle="0.1", recording=os.path.join(DATA, "gps", "dog_walk_stops.nmea"))
    wearable = setup.wearable()
    wait_for(lambda: os.path.exists(f"{setup.wear_dir}/wearbridge.sqlite") and setup.wear_query(
        "SELECT count(*) FROM session")[0][0] > 0, 60, "a session")
    if with_phone:
        wait_for(lambda: setup.inbox(), 30, "the link")
    time.sleep(2)
    cpu0, _ = proc_figures(wearable.pid)
    head0 = setup.wear_query("SELECT coalesce(max(seq), 0) FROM outbox")[0][0]
    up0, down0 = (proxy.bytes_up, proxy.bytes_down) if proxy else (0, 0)
    t0 = time.time()
    time.sleep(SECONDS)
    wall = time.time() - t0
    cpu1, hwm = proc_figures(wearable.pid)
    result = {"cpu_percent": 100 * (cpu1 - cpu0) / wall, "rss_mb": hwm}
    if with_phone:
        rows = setup.wear_query(f"SELECT class FROM outbox WHERE seq > {head0}")
        head1 = setup.wear_query("SELECT coalesce(max(seq), 0) FROM outbox")[0][0]
        others = sum(1 for (cls,) in rows if cls != "snapshot")
        snapshots = head1 - head0 - others
        sizes = [len(p) for (p,) in setup.wear_query("SELECT payload FROM outbox WHERE class = 'snapshot'")]
        result.update({
            "snapshots": snapshots, "other_messages": others, "seconds": wall,
            "wire_up_bytes": proxy.bytes_up - up0, "wire_down_bytes": proxy.bytes_down - down0,
            "snapshot_payload_bytes": max(sizes) if sizes else None,
        })
    stop_all()
    harness.PROCESSES.clear()
    return result


def latency():
    """Commit on the wearable to commit on the phone, for critical messages (commands drive them)."""
    setup = Setup()
    setup.phone()
    setup.gpsfake(cycle="0.1", recording=os.path.join(DATA, "gps", "dog_walk_stops.nmea"))
    setup.wearable()
    wait_for(lambda: setup.inbox(), 60, "the link")
    for i in range(int(os.environ.get("BENCH_LINK_COMMANDS", "60"))):
        run([f"{BIN}/wearbridge-phone", "pause" if i % 2 == 0 else "resume", "--config", setup.phone_config,
             "--id", str(uuid.uuid4()), "--timeout", "20"], check=False)
    time.sleep(2)
    db = sqlite3.connect(f"file:{setup.phone_dir}/wearbridge-phone.sqlite?mode=ro", uri=True)
    samples = [1000 * (received - created / 1000) for (received, created) in
               db.execute("SELECT received_at, created_at_ms FROM inbox WHERE class = 'critical'")]
    db.close()
    stop_all()
    harness.PROCESSES.clear()
    samples.sort()
    return {"messages": len(samples), "p50_ms": samples[len(samples) // 2],
            "p99_ms": samples[min(len(samples) - 1, int(len(samples) * 0.99))], "max_ms": samples[-1]}


def catch_up():
    """The phone away while two recordings (70 min of GPS time) play; then the time to catch up,
    from the wearable's connection (its reconnect backoff excluded) and from the phone's start."""
    setup = Setup()
    wearable = None
    for name in ("park_loop_run", "dog_walk_stops"):
        feed = setup.gpsfake(cycle="0.004", recording=os.path.join(DATA, "gps", f"{name}.nmea"))
        if wearable is None:
            wearable = setup.wearable()
        wait_for(lambda: os.path.exists(f"{setup.wear_dir}/wearbridge.sqlite"), 30, "the data log")
        last, stable_since = -1, time.time()
        while time.time() - stable_since < 4:  # the recording is over when fixes stop coming
            count = setup.wear_query("SELECT count(*) FROM fix")[0][0]
            if count != last:
                last, stable_since = count, time.time()
            time.sleep(0.5)
        kill9(feed)
    pending = len([r for r in setup.outbox() if r[1] != "snapshot" and r[3] == "pending"])
    t0 = time.time()
    setup.phone()

    def connected():
        try:
            db = sqlite3.connect(f"file:{setup.phone_dir}/wearbridge-phone.sqlite?mode=ro", uri=True)
            return db.execute("SELECT connected FROM link WHERE wearable = 'pi'").fetchone() == (1,)
        except sqlite3.Error:
            return False

    wait_for(connected, 60, "the wearable's connection")
    t1 = time.time()
    wait_for(setup.delivered_everything, 120, "the catch-up")
    t2 = time.time()
    count = setup.check_inbox_equals_outbox()
    recorded = setup.wear_query("SELECT sum(elapsed_s) FROM session")[0][0]
    stop_all()
    harness.PROCESSES.clear()
    return {"recorded_minutes": recorded / 60, "messages_waiting": pending + 1, "delivered": count,
            "seconds_from_connection": t2 - t1, "seconds_from_phone_start": t2 - t0}


def main():
    figures = {"latency": latency(), "catch_up": catch_up()}
    rounds = int(os.environ.get("BENCH_LINK_ROUNDS", "2"))
    if rounds == 0:  # the phone's figures alone (scripts/bench/phone-against.sh): no daemon runs
        print(json.dumps(figures, indent=2))
        return
    runs = {"without": [], "with": []}
    for _ in range(rounds):
        runs["without"].append(daemon_run(False))
        runs["with"].append(daemon_run(True))
    figures["runs"] = runs
    cpu_without = statistics.mean(r["cpu_percent"] for r in runs["without"])
    cpu_with = statistics.mean(r["cpu_percent"] for r in runs["with"])
    rss_without = statistics.mean(r["rss_mb"] for r in runs["without"])
    rss_with = statistics.mean(r["rss_mb"] for r in runs["with"])
    live = runs["with"]
    per_snapshot_up = statistics.mean(r["wire_up_bytes"] / max(1, r["snapshots"]) for r in live)
    per_snapshot_down = statistics.mean(r["wire_down_bytes"] / max(1, r["snapshots"]) for r in live)
    figures["summary"] = {
        "snapshot_payload_bytes": max(r["snapshot_payload_bytes"] or 0 for r in live),
        "wire_bytes_per_snapshot_up": per_snapshot_up,
        "wire_bytes_per_snapshot_down_acks": per_snapshot_down,
        "bandwidth_per_hour_1hz_mb": (per_snapshot_up + per_snapshot_down) * 3600 / 1e6,
        "cpu_percent_without": cpu_without, "cpu_percent_with": cpu_with,
        "cpu_ratio": cpu_with / cpu_without if cpu_without else None,
        "rss_mb_without": rss_without, "rss_mb_with": rss_with, "rss_delta_mb": rss_with - rss_without,
    }
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    try:
        main()
    finally:
        stop_all()
