#!/usr/bin/env python3
"""Checks what `wearbridge sensor` printed in the guest against every payload the virtual footpod
and treadmill sent (Tests/ble/sensor_world.py's log), and `wearbridge scan`'s types. Prints the
figures; exits 1 naming what is wrong. Usage: check_sensors.py OUT_DIR"""
import json
import os
import sys


def lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip().startswith("{")]


def check_stream(name, printed, sent, problems):
    """Every value printed is one the device sent, in order, none missing between the first and
    the last, and read as the device meant it."""
    values = [e for e in printed if e["kind"] in ("sample", "malformed")]
    sent_values = [e for e in sent if e["kind"] in ("valid", "malformed")]
    if not values:
        problems.append(f"{name}: nothing received")
        return {}
    by_hex = [e["hex"] for e in sent_values]
    try:
        first = by_hex.index(values[0]["hex"])
    except ValueError:
        problems.append(f"{name}: the first value {values[0]['hex']} was never sent")
        return {}
    position, missing = first, []
    for value in values:
        while position < len(by_hex) and by_hex[position] != value["hex"]:
            missing.append(sent_values[position]["n"])
            position += 1
        if position == len(by_hex):
            problems.append(f"{name}: {value['hex']} printed but not sent (or out of order)")
            return {}
        origin = sent_values[position]
        if value["kind"] == "sample":
            if origin["kind"] != "valid":
                problems.append(f"{name}: a cut-short payload {value['hex']} was taken as a sample")
            if abs(value["speed_mps"] - origin["speed"]) > 0.01:
                problems.append(f"{name}: speed {value['speed_mps']} read, {origin['speed']} sent")
            if abs(value["total_m"] - origin["total_m"]) > 0.1:
                problems.append(f"{name}: total {value['total_m']} m read, {origin['total_m']} sent")
        elif origin["kind"] != "malformed":
            problems.append(f"{name}: a whole payload {value['hex']} was called malformed: {value.get('reason')}")
        position += 1
    if missing:
        problems.append(f"{name}: sent while connected but never printed: n={missing[:10]}")
    samples = [v for v in values if v["kind"] == "sample"]
    return {
        "samples": len(samples),
        "malformed": len(values) - len(samples),
        "distance_m": round(samples[-1]["total_m"] - samples[0]["total_m"], 1),
        "connections": sum(1 for e in printed if e["kind"] == "connected"),
        "losses": [e["reason"] for e in printed if e["kind"] == "lost"],
    }


def main():
    out = sys.argv[1]
    problems = []
    sent = lines(os.path.join(out, "sensors-sent.jsonl"))
    figures = {}
    footpod = lines(os.path.join(out, "footpod.jsonl"))
    treadmill = lines(os.path.join(out, "treadmill.jsonl"))
    figures["footpod"] = check_stream("footpod", footpod, [e for e in sent if e["device"] == "footpod"], problems)
    figures["treadmill"] = check_stream(
        "treadmill", treadmill, [e for e in sent if e["device"] == "treadmill"], problems)
    if figures["footpod"]:
        if figures["footpod"]["connections"] < 2 or not figures["footpod"]["losses"]:
            problems.append(f"footpod: the dropped link was not lost and made again: {figures['footpod']}")
        if figures["footpod"]["malformed"] < 1:
            problems.append("footpod: no cut-short payload was reported as one")
    if not any(e["kind"] == "machine_status" and "startedOrResumed" in e.get("detail", "") for e in treadmill):
        problems.append("treadmill: its 'started' status was not reported")
    if not any(e["kind"] == "feature" for e in footpod):
        problems.append("footpod: its RSC feature was not read")
    scan = lines(os.path.join(out, "scan.json"))
    types = {e["address"]: e.get("type") for e in scan}
    figures["scan"] = types
    for address, kind in (("F2:F2:F2:F2:F2:F2", "footpod"), ("F3:F3:F3:F3:F3:F3", "treadmill"),
                          ("F1:F1:F1:F1:F1:F1", "heart_rate")):
        if types.get(address) != kind:
            problems.append(f"scan: {address} is {types.get(address)!r}, not {kind}")
    print(json.dumps(figures, indent=1))
    for problem in problems:
        print(f"FAIL {problem}", file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
