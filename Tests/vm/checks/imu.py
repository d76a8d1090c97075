#!/usr/bin/env python3
"""Checks what the IMU's case of Tests/vm/test_vm.py left in OUT of the IMU's part against the gait
Tests/iio/bmi160.py wrote into the BMI160's registers: the bmi160 driver bound and its buffer
driven by the daemon's hrtimer trigger at 100 Hz, the daemon's steps and cadence the gait's, the
indoor session's distance from them and its stops paused, every pedometer reading logged, the
IMU removed (said so, status still answering) and added back (read again), and the daemon's CPU
with the IMU read at 100 Hz against the IMU off, per second, as a ratio.
Usage: Tests/vm/checks/imu.py OUT TRUTH_JSON"""
import json
import os
import sqlite3
import sys

from verdict import Verdict

out = sys.argv[1]
truth = json.loads(sys.argv[2])
verdict = Verdict(out)
check, load = verdict.check, verdict.load


timings = dict(token.split("=", 1) for line in open(os.path.join(out, "imu-timings")) for token in line.split()
               if "=" in token)
before = load("imu-status-before.json")["status"].get("imu") or {}
check(before.get("state") == "reading" and before.get("name") == "bmi160" and before.get("placement") == "hip",
      "ctl status: the bmi160 read, worn on the hip", json.dumps(before))
check(before.get("trigger") == "wearbridge", "driven by the hrtimer trigger the daemon made", before.get("trigger", ""))
check("wearbridge" in open(os.path.join(out, "imu-triggers.txt")).read().split()
      and open(os.path.join(out, "imu-current-trigger.txt")).read().strip() == "wearbridge",
      "the kernel lists the trigger and the device's buffer uses it")

session = load("imu-status-session.json")["status"]
imu = session.get("imu") or {}
rate = imu.get("measured_rate_hz") or 0
check(abs(rate - 100) <= 10, "samples at the rate asked, 100 Hz", f"{rate:.1f} Hz")
played = [json.loads(line) for line in open(os.path.join(out, "imu-steps.jsonl"))]
late, skipped = played[-1].get("late_writes", 0), played[-1].get("skipped", 0)
# The writer's own pace is the rig's, not the daemon's: a figure. Behind its clock it skips to the
# sample of now, so the gait the driver reads keeps its time.
print(f"the gait written: {played[-1].get('written')} of {truth['samples']} samples, {late} times behind, "
      f"{skipped} skipped")
true_steps = truth["steps"]
show = load("imu-show.json")
summary = show.get("summary") or {}
counted = summary.get("steps")
check(counted is not None and abs(counted - true_steps) <= max(3, 0.02 * true_steps),
      "the session's steps within 2 % (or 3) of the gait's", f"{counted} of {true_steps}")
check(show.get("distance_source") == "steps", "the indoor session's distance comes from the steps",
      str(show.get("distance_source")))
distance = show.get("distance_m")
# Uncalibrated, the steps cover the prior's metres: 170 at about 1.2 m and 44 at about 0.78 m.
expected = 170 * 1.2 + 44 * (0.55 + 30 * 0.65 / 90)
check(distance is not None and abs(distance - expected) < 0.1 * expected,
      "its distance the steps' metres at the prior step length", f"{distance} m against about {expected:.0f} m")
check((summary.get("auto_pauses") or 0) >= 1 and (show.get("paused_s") or 0) > 10, "the stops auto-paused",
      f"{summary.get('auto_pauses')} pauses, {show.get('paused_s')} s")
log = sqlite3.connect(os.path.join(out, "imu-data.sqlite"))
rows = list(log.execute("SELECT steps, still, cadence, total_m FROM speed WHERE source = 'steps' ORDER BY seq"))
seconds = float(timings.get("seconds_on", 0))
check(len(rows) >= seconds - 5, "a pedometer reading a second logged", f"{len(rows)} rows over {seconds:.0f} s")
check(any(r[1] == 1 for r in rows) and any(r[1] == 0 for r in rows), "standing and moving both logged as such")
cadences = [r[2] for r in rows if r[2]]
running = sorted(cadences)[len(cadences) // 2] if cadences else None
check(running is not None and any(abs(c - 170) <= 4 for c in cadences) and any(abs(c - 110) <= 4 for c in cadences),
      "the cadence read the run's 170 and the walk's 110 a minute", f"median {running}")

removed = load("imu-status-removed.json")["status"]
gone = removed.get("imu") or {}
check(gone.get("state") in ("absent", "unreadable") and gone.get("reason"),
      "removed: absent or unreadable, with why, and status still answers", json.dumps(gone))
again = load("imu-status-again.json")["status"].get("imu") or {}
check(again.get("state") == "reading", "added back: read again", json.dumps(again))

ticks = int(timings.get("clk_tck", 100))
on = int(timings["cpu_on_ticks"]) / ticks / seconds
print("figures:")
print(f"  steps {counted} of {true_steps} ({(counted - true_steps) / true_steps * 100:+.1f} %); "
      f"distance {distance} m uncalibrated; {len(rows)} readings; rate {rate:.1f} Hz")
if "cpu_off_ticks" in timings:
    off = int(timings["cpu_off_ticks"]) / ticks / float(timings["seconds_off"])
    ratio = on / off if off > 0 else float("inf")
    print(f"  daemon CPU with the IMU at 100 Hz {on * 100:.2f} % of a core, off {off * 100:.2f} %: ratio {ratio:.2f} "
          "(in the VM, under qemu's emulation)")
verdict.finish()
