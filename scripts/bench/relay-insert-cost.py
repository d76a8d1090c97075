#!/usr/bin/env python3
"""The relay's own time for one snapshot (docs/benchmarks.md, "The relay"): a fresh local relay at the
first schema (`relay migrate --through 1`) and one with every migration, in one run; on each, 15
snapshots inserted half a second apart under EXPLAIN ANALYZE (the insert and its trigger) and the
partner's `relay.latest_snapshot` after each. Prints the medians in milliseconds.
    python3 scripts/bench/relay-insert-cost.py        (needs the debug build and PostgreSQL 15)"""
import os
import statistics
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "rigs"))
import relay as contract  # noqa: E402  (the rig's Relay: a relay made by scripts/rigs/relay-local.sh)

INSERT = ("EXPLAIN (ANALYZE, FORMAT JSON) INSERT INTO relay.messages (run_id, runner, seq, class, kind, distance_m, "
          "elapsed_s) VALUES (%s, 'alice', %s, 'snapshot', 'snapshot', %s, %s)")
POLL = "EXPLAIN (ANALYZE, FORMAT JSON) SELECT * FROM relay.latest_snapshot(%s, 'alice')"

for label, through in (("first schema", "1"), ("every migration", "")):
    os.environ.pop("RELAY_MIGRATE_THROUGH", None)
    if through:
        os.environ["RELAY_MIGRATE_THROUGH"] = through
    relay = contract.Relay()
    try:
        with relay.connect("alice") as a, relay.connect("bob") as b:
            run = contract.start_race(relay, "alice", "bob", "--start-in", "10s")
            trigger, insert, poll = [], [], []
            for seq in range(1, 16):
                plan = a.execute(INSERT, (run, seq, seq * 0.1, seq * 0.05)).fetchone()[0][0]
                trigger.append(sum(t["Time"] for t in plan.get("Triggers", [])))
                insert.append(plan["Execution Time"])
                plan = b.execute(POLL, (run,)).fetchone()[0][0]
                poll.append(plan["Planning Time"] + plan["Execution Time"])
                time.sleep(0.55)
        print(f"{label:16} insert {statistics.median(insert):.3f} ms (trigger {statistics.median(trigger):.3f}), "
              f"partner's latest_snapshot {statistics.median(poll):.3f} ms")
    finally:
        relay.stop()
