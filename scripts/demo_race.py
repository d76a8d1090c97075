#!/usr/bin/env python3
"""The body of scripts/demo-race.sh: two wearables and two phones race through a local relay."""
import json
import os
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "phone-link"))
sys.path.insert(0, os.path.join(ROOT, "Tests", "relay"))
import harness  # noqa: E402  (the phone-link tests' process handling: every process stopped at exit)
from run import PHONE, Relay, count, shift_nmea  # noqa: E402  (the relay tests' local relay)

GPS = os.path.join(harness.SHARED, "benchmarks", "gps")
RECORDINGS = {"alice": os.path.join(GPS, "park_loop_run.nmea"), "bob": os.path.join(GPS, "track_3k_laps.nmea")}


def say(text):
    print(f"[{time.strftime('%H:%M:%S')}] {text}", flush=True)


def race_status(runner, setup):
    out = harness.run([PHONE, "race", "status", "--config", setup.phone_config], check=False)
    return out.stdout.strip().splitlines()[-1] if out.stdout.strip() else out.stderr.strip()


def main():
    seconds = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    relay = Relay()
    say(f"relay: PostgreSQL on 127.0.0.1:{relay.port}, runners alice and bob (certificates in {relay.tls})")
    setups = {}
    try:
        for runner in ("alice", "bob"):
            setup = harness.Setup()
            setup.write_phone_config(extra=f'[relay]\nhost = "localhost"\nport = {relay.port}\nrunner = "{runner}"\n'
                                           f'ca = "{relay.tls}/ca.crt"\ncertificate = "{relay.tls}/{runner}.crt"\n'
                                           f'key = "{relay.tls}/{runner}.key"\n')
            setups[runner] = setup
        run = relay.phone("alice", "race", "invite", "bob", "--distance", "1km", "--start-in", "15s").stdout.strip()
        say(f"alice: race invite bob --distance 1km --start-in 15s -> {run}")
        say("bob:   race list -> " + relay.phone("bob", "race", "list").stdout.strip())
        say("bob:   race accept -> " + relay.phone("bob", "race", "accept", run[:8]).stdout.strip())
        with relay.connect("alice") as conn:
            start_at = count(conn, "SELECT start_at FROM relay.runs WHERE id = %s", run).timestamp()
        for runner, setup in setups.items():
            recording = os.path.join(setup.dir, "recording.nmea")
            shift_nmea(RECORDINGS[runner], recording, start_at)
            setup.recording = recording
            setup.phone()
            setup.wearable()
        while time.time() < start_at - 1:
            time.sleep(0.1)
        for runner, setup in setups.items():
            setup.gpsfake(cycle="0.25", recording=setup.recording)
        say(f"both wearables run ({os.path.basename(RECORDINGS['alice'])} and {os.path.basename(RECORDINGS['bob'])}, "
            "their GPS time moved to the agreed start)")
        for _ in range(seconds // 5):
            time.sleep(5)
            for runner, setup in setups.items():
                say(f"{runner:5}: race status -> {race_status(runner, setup)}")
        for runner, setup in setups.items():
            out = harness.run([PHONE, "end", "--config", setup.phone_config, "--timeout", "60"], check=False)
            say(f"{runner:5}: end -> {out.stdout.strip() or out.stderr.strip()}")
        with relay.connect("alice") as conn:
            harness.wait_for(lambda: count(conn, "SELECT state FROM relay.runs WHERE id = %s", run) != "accepted", 60,
                             "the relay's result")
        for runner in ("alice", "bob"):
            say(f"{runner}: race show")
            print(relay.phone(runner, "race", "show", run).stdout.rstrip())
        return 0
    finally:
        harness.stop_all()
        relay.stop()


if __name__ == "__main__":
    sys.exit(main())
