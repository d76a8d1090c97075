#!/usr/bin/env python3
"""The body of scripts/bench/relay-phone.sh: the phone's CPU and peak RSS with the relay on and off."""
import os
import statistics
import sys
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "rigs"))
import harness  # noqa: E402
import race_day  # noqa: E402
from relay import Relay, count, start_race  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def peak_rss_mb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def one(relay, with_relay, seconds):
    """One phone for `seconds` after a 10 s warm-up: in a race (its wearable counting down, started at
    the agreed instant, a partner posting a snapshot a second), or with no [relay] and the same
    wearable started by autostart. gpsd is fed at the recording's own pace either way."""
    runner = race_day.Runner(relay, "alice")
    setup = runner.setup
    stop = threading.Event()
    try:
        if with_relay:
            run = start_race(relay, "alice", "bob", "--start-in", "40s", "--abandon-after", "10m")
            with relay.connect("bob") as b:
                start_at = count(b, "SELECT start_at FROM relay.my_runs WHERE id = %s", run).timestamp()

            def partner():
                with relay.connect("bob") as b:
                    seq = 0
                    while not stop.wait(1.0):
                        seq += 1
                        elapsed = max(0.0, time.time() - start_at)
                        b.execute("INSERT INTO relay.messages (run_id, runner, seq, class, kind, distance_m, elapsed_s)"
                                  " VALUES (%s, 'bob', %s, 'snapshot', 'snapshot', %s, %s) ON CONFLICT DO NOTHING",
                                  (run, seq, 3.0 * elapsed, elapsed))
            threading.Thread(target=partner, daemon=True).start()
        else:
            start_at = time.time() + 8
            setup.write_phone_config()
            with open(setup.wear_config) as f:
                config = f.read().replace("autostart = false", "autostart = true")
            with open(setup.wear_config, "w") as f:
                f.write(config)
        race_day.set_off(start_at, [(runner, harness.RECORDING, 0)])
        race_day.sleep_until(start_at + 10)  # warm-up: the session started, the link and the pump settled
        before = cpu_seconds(runner.phone.pid)
        time.sleep(seconds)
        used = (cpu_seconds(runner.phone.pid) - before) / seconds * 100
        peak = peak_rss_mb(runner.phone.pid)
        if with_relay:
            harness.run([os.path.join(harness.BIN, "wearbridge-phone"), "race", "cancel", run,
                         "--config", relay.config("alice")])
        return used, peak
    finally:
        stop.set()
        harness.stop_all()
        harness.PROCESSES.clear()


def main():
    seconds, rounds = int(sys.argv[1]), int(sys.argv[2])
    relay = Relay()
    results = {True: [], False: []}
    try:
        for round_ in range(rounds):
            for with_relay in ((True, False) if round_ % 2 == 0 else (False, True)):
                cpu, rss = one(relay, with_relay, seconds)
                results[with_relay].append((cpu, rss))
                print(f"round {round_ + 1}, relay {'on ' if with_relay else 'off'}: phone CPU {cpu:.2f}% of a core, "
                      f"peak RSS {rss:.1f} MB", flush=True)
    finally:
        relay.stop()
    on_cpu = statistics.median(c for c, _ in results[True])
    off_cpu = statistics.median(c for c, _ in results[False])
    on_rss = statistics.median(r for _, r in results[True])
    off_rss = statistics.median(r for _, r in results[False])
    print(f"medians over {rounds} rounds of {seconds} s: relay on {on_cpu:.2f}% / {on_rss:.1f} MB, "
          f"off {off_cpu:.2f}% / {off_rss:.1f} MB; on/off CPU x{on_cpu / off_cpu:.2f}, RSS +{on_rss - off_rss:.1f} MB")


if __name__ == "__main__":
    main()
