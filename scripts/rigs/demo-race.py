#!/usr/bin/env python3
"""The body of scripts/demo-race.sh: two wearables and two phones race through a local relay."""
import json
import os
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "rigs"))
import harness  # noqa: E402  (the Python rig's process handling: every process stopped at exit)
import race_day  # noqa: E402  (two runners: gpsd, gpsfake, a wearable with cues and a phone each)
from relay import PHONE, Relay, count  # noqa: E402  (a local relay)


def say(text):
    print(f"[{time.strftime('%H:%M:%S')}] {text}", flush=True)


def status(runner):
    """The wearable's own `ctl status` race line."""
    out = harness.run([f"{harness.BIN}/wearbridge", "ctl", "status", "--config", runner.setup.wear_config],
                      check=False).stdout
    lines = [line for line in out.splitlines() if line.startswith(("race", "state"))]
    return " | ".join(" ".join(line.split()) for line in lines) or out.strip()


def main():
    seconds = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    relay = Relay()
    say(f"relay: PostgreSQL on 127.0.0.1:{relay.port}, runners alice and bob (certificates in {relay.tls})")
    alice, bob = race_day.Runner(relay, "alice"), race_day.Runner(relay, "bob")
    try:
        run = relay.phone("alice", "race", "invite", "bob", "--distance", "1km", "--start-in", "50s").stdout.strip()
        say(f"alice: race invite bob --distance 1km --start-in 50s -> {run}")
        say("bob:   race list -> " + relay.phone("bob", "race", "list").stdout.strip())
        say("bob:   race accept -> " + relay.phone("bob", "race", "accept", run[:8]).stdout.strip())
        with relay.connect("alice") as conn:
            start_at = count(conn, "SELECT start_at FROM relay.my_runs WHERE id = %s", run).timestamp()
        race_day.set_off(start_at, race_day.course(alice, bob))
        say("both wearables and phones run (alice: track_3k_laps, standing 10 s at the start; bob: park_loop_run, "
            "with a minute's stop); their phones hand them the race 35 s before the start")
        while time.time() < start_at + seconds:
            time.sleep(10)
            for runner in (alice, bob):
                say(f"{runner.name:5}: wearbridge ctl status -> {status(runner)}")
        for runner in (alice, bob):
            out = harness.run([PHONE, "end", "--config", runner.setup.phone_config, "--timeout", "60"], check=False)
            say(f"{runner.name:5}: end -> {out.stdout.strip() or out.stderr.strip()}")
        with relay.connect("alice") as conn:
            harness.wait_for(lambda: count(conn, "SELECT state FROM relay.my_runs WHERE id = %s", run) != "accepted", 60,
                             "the relay's result")
        time.sleep(3)
        for runner in (alice, bob):
            say(f"{runner.name}'s wearable said:")
            for text in runner.spoken():
                print(f"    {text}")
        for runner in ("alice", "bob"):
            say(f"{runner}: race show")
            print(relay.phone(runner, "race", "show", run).stdout.rstrip())
        return 0
    finally:
        harness.stop_all()
        relay.stop()


if __name__ == "__main__":
    sys.exit(main())
