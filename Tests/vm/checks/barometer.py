#!/usr/bin/env python3
"""Checks what the barometer's case of Tests/vm/test_vm.py left in OUT against the climb it wrote into the
BMP280's registers: the driver read the pressure written, the daemon read it through sysfs, the
session's elevation is the climb's (the barometer's, its level learnt from the receiver), and the
barometer removed and added back was said so and read again.
Usage: Tests/vm/checks/barometer.py OUT TRUTH_JSON"""
import json
import os
import sqlite3
import sys

from verdict import Verdict

out = sys.argv[1]
truth = json.loads(sys.argv[2])
verdict = Verdict(out)
check, load = verdict.check, verdict.load


profile = [line.split() for line in open(os.path.join(out, "barometer-profile.txt"))]
first = float(open(os.path.join(out, "barometer-first-read.txt")).read())
check(abs(first - float(profile[0][1])) < 0.0005, "the driver reads the pressure written into the stub's registers",
      f"{first} kPa against {profile[0][1]}")

reading = load("barometer-status-reading.json")["status"]
barometer = reading.get("barometer") or {}
check(barometer.get("state") == "reading" and barometer.get("name") == "bmp280",
      "ctl status: the bmp280 being read", json.dumps(barometer))
written = [float(p[1]) for p in profile]
check(barometer.get("pressure_kpa") is not None and min(abs(barometer["pressure_kpa"] - w) for w in written[-5:]) < 0.002,
      "the daemon's last reading is one of the last pressures written", f"{barometer.get('pressure_kpa')}")
log = sqlite3.connect(os.path.join(out, "barometer-data.sqlite"))
logged = [row[0] for row in log.execute("SELECT kpa FROM pressure ORDER BY seq")]
top = min(written)
check(logged and abs(min(logged) - top) < 0.0005,
      "the data log holds the climb: its lowest pressure is the top's", f"{min(logged) if logged else None} against {top}")
check(len(logged) >= len(profile) - 10, "every reading logged", f"{len(logged)} rows")
check(barometer.get("readings", 0) >= len(profile) - 10, "a reading each second", f"{barometer.get('readings')} readings")
elevation = reading.get("elevation") or {}
check(elevation.get("source") == "barometer", "the session's elevation comes from the barometer", json.dumps(elevation))

removed = load("barometer-status-removed.json")["status"].get("barometer") or {}
check(removed.get("state") in ("unreadable", "absent") and removed.get("reason"),
      "removed: the barometer said unreadable or absent, with why", json.dumps(removed))
again = load("barometer-status-again.json")["status"].get("barometer") or {}
check(again.get("state") == "reading" and again.get("readings", 0) > barometer.get("readings", 0),
      "added back: found and read again", json.dumps(again))

show = load("barometer-show.json")
summary = show.get("summary") or {}
climbed = summary.get("elevation") or {}
gain, loss = climbed.get("gain_m"), climbed.get("loss_m")
check(climbed.get("source") == "barometer", "the stored summary's elevation is the barometer's", json.dumps(climbed))
check(gain is not None and abs(gain - truth["gain_m"]) <= 3, "gain within 3 m of the climb",
      f"{gain} m against {truth['gain_m']} m")
check(loss is not None and abs(loss - truth["loss_m"]) <= 3, "loss within 3 m of the descent",
      f"{loss} m against {truth['loss_m']} m")
print("figures:")
print(f"  climb written {truth['gain_m']} m up, {truth['loss_m']} m down; the session: gain {gain} m, loss {loss} m")
verdict.finish()
