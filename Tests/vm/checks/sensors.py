#!/usr/bin/env python3
"""Checks what `wearbridge sensor` printed in the guest against every payload the virtual footpod
and treadmill sent (Tests/ble/world.py, sent.jsonl), and `wearbridge scan`'s types. Prints the
figures; exits 1 naming what is wrong. Usage: Tests/vm/checks/sensors.py OUT_DIR"""
import json
import os
import sqlite3
import sys


def lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip().startswith("{")]


def check_stream(name, printed, sent, problems):
    """Every value printed is one the device sent, in order, none missing while subscribed (between
    two values of one connection), and read as the device meant it. What a device sends between a
    (re)connection and our subscription goes to nobody: at most three such per connection."""
    # The connection each printed value came on: a value printed first after a "connected" opens it.
    opens, seen_connected = set(), False
    for index, entry in enumerate(printed):
        if entry["kind"] == "connected":
            seen_connected = True
        elif entry["kind"] in ("sample", "malformed") and seen_connected:
            opens.add(index)
            seen_connected = False
    opening = {id(printed[i]) for i in opens}
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
    position, missing, unsubscribed = first, [], []
    for value in values:
        skipped = []
        while position < len(by_hex) and by_hex[position] != value["hex"]:
            skipped.append(sent_values[position]["n"])
            position += 1
        if id(value) in opening:
            unsubscribed.append(len(skipped))
        else:
            missing += skipped
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
        problems.append(f"{name}: sent while subscribed but never printed: n={missing[:10]}")
    if any(n > 3 for n in unsubscribed):
        problems.append(f"{name}: more than three values sent before a subscription: {unsubscribed}")
    samples = [v for v in values if v["kind"] == "sample"]
    return {
        "samples": len(samples),
        "malformed": len(values) - len(samples),
        "distance_m": round(samples[-1]["total_m"] - samples[0]["total_m"], 1),
        "connections": sum(1 for e in printed if e["kind"] == "connected"),
        "losses": [e["reason"] for e in printed if e["kind"] == "lost"],
    }


def cpu_and_memory(out, name):
    """The daemon's share of a core over its measured window, and its peak RSS (kB)."""
    tick = int(open(os.path.join(out, "clk-tck.txt")).read())

    def jiffies(which):
        fields = open(os.path.join(out, f"stat-{name}-{which}.txt")).read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime, stime

    def uptime(which):
        return float(open(os.path.join(out, f"uptime-{name}-{which}.txt")).read())

    seconds = uptime("end") - uptime("begin")
    cpu = (jiffies("end") - jiffies("begin")) / tick / seconds * 100
    memory = {line.split(":")[0]: int(line.split()[1]) for line in open(os.path.join(out, f"mem-{name}.txt"))}
    return {"cpu_percent": round(cpu, 2), "window_s": round(seconds, 1), "rss_kB": memory["VmRSS"],
            "peak_rss_kB": memory["VmHWM"]}


def check_daemon(out, sent, problems):
    """The indoor session the daemon recorded: its distance is what the treadmill counted while it
    was followed, every sample logged (bytes as sent), the footpod's cadence, drop and return."""
    db = sqlite3.connect(f"file:{os.path.join(out, 'data-sensors.sqlite')}?mode=ro", uri=True)
    session = db.execute("SELECT id, distance_m, distance_source, state FROM session").fetchall()
    if len(session) != 1:
        problems.append(f"daemon: {len(session)} sessions recorded, not 1")
        return {}
    sid, distance, source, state = session[0]
    if source != "treadmill" or state != "ended":
        problems.append(f"daemon: the session is {state} with distance from {source!r}, not an ended treadmill one")
    figures = {"distance_m": distance, "source": source}
    for device in ("treadmill", "footpod"):
        rows = db.execute("SELECT seq, hex(payload), total_m, speed, cadence FROM speed "
                          "WHERE session_id = ? AND source = ? ORDER BY seq", (sid, device)).fetchall()
        # Each (re)connection is an event in the same sequence as the samples: with it in place, what
        # the device sent before our subscription is told apart from a sample lost while subscribed.
        connected = [(seq, {"kind": "connected"}) for (seq,) in db.execute(
            "SELECT seq FROM event WHERE session_id = ? AND kind = ?", (sid, f"{device}_connected"))]
        logged = [entry for _, entry in sorted(connected + [
            (row[0], {"kind": "sample", "hex": row[1].lower(), "speed_mps": row[3], "total_m": row[2]})
            for row in rows], key=lambda pair: pair[0])]
        malformed = [json.loads(row[0]) for row in db.execute(
            "SELECT detail FROM event WHERE session_id = ? AND kind = ? ORDER BY seq", (sid, f"{device}_malformed"))]
        # The log keeps samples and malformed payloads in their own places: check the samples in
        # order against what was sent whole, and every malformed one against what was cut short.
        whole = [e for e in sent if e["device"] == device and e["kind"] == "valid"]
        result = check_stream(f"daemon {device}", logged, whole, problems)
        cut = {e["hex"] for e in sent if e["device"] == device and e["kind"] == "malformed"}
        if any(m["payload"] not in cut for m in malformed):
            problems.append(f"daemon {device}: a malformed event whose bytes were never sent cut short")
        result["malformed"] = len(malformed)
        if device == "treadmill" and rows:
            counted = rows[-1][2] - rows[0][2]
            result["counted_m"] = counted
            if abs(distance - counted) > 1e-6:
                problems.append(f"daemon: session distance {distance} m, the treadmill counted {counted} m")
        if device == "footpod":
            cadences = {row[4] for row in rows}
            if cadences != {172}:
                problems.append(f"daemon footpod: cadence logged as {cadences}, the footpod sent 172")
            kinds = [row[0] for row in db.execute(
                "SELECT kind FROM event WHERE session_id = ? AND kind LIKE 'footpod_%' ORDER BY seq", (sid,))]
            result["events"] = sorted(set(kinds))
            if "footpod_lost" not in kinds or "footpod_connected" not in kinds[kinds.index("footpod_lost"):]:
                problems.append(f"daemon footpod: no drop and return in the session's events: {kinds}")
        figures[device] = result
    status = json.load(open(os.path.join(out, "status-sensors.json"))).get("status", {})
    sensors = {s["kind"]: s for s in status.get("speed_sensors", [])}
    if status.get("distance_source") != "treadmill" or sensors.get("treadmill", {}).get("link") != "streaming":
        problems.append(f"daemon: ctl status does not show the treadmill's session: {status}")
    if sensors.get("footpod", {}).get("cadence") != 172:
        problems.append(f"daemon: ctl status shows no footpod cadence: {sensors.get('footpod')}")
    return figures


def check_tunnel(out, problems):
    """The tunnel outdoors: with the footpod, the session's distance is within 1 % of the route's
    truth; with the GPS alone it bridges the tunnel with the chord, well short of it."""
    route = json.load(open(os.path.join(out, "route.json")))
    truth = route["distance_m"]
    figures = {"truth_m": truth, "tunnel_s": route["tunnel_s"]}
    for name in ("footpod", "alone"):
        db = sqlite3.connect(f"file:{os.path.join(out, f'data-route-{name}.sqlite')}?mode=ro", uri=True)
        rows = db.execute("SELECT id, distance_m FROM session").fetchall()
        if len(rows) != 1:
            problems.append(f"tunnel ({name}): {len(rows)} sessions, not 1")
            continue
        sid, distance = rows[0]
        bridged = [json.loads(d) for (d,) in db.execute(
            "SELECT detail FROM event WHERE session_id = ? AND kind = 'gap_bridged'", (sid,))]
        figures[name] = {"distance_m": round(distance, 1), "error_pct": round((distance / truth - 1) * 100, 2),
                         "bridged": [(round(b["duration_s"]), round(b["distance_m"], 1)) for b in bridged]}
        if name == "footpod":
            # What the footpod learnt on the way in and whether its link held: a failure says why.
            figures[name]["stretches"] = [
                (round(start, 1), round(end, 1), round(gps_m, 1), round(footpod_m / gps_m, 4))
                for start, end, gps_m, footpod_m in db.execute(
                    "SELECT start, end, gps_m, footpod_m FROM calibration WHERE session_id = ? ORDER BY seq",
                    (sid,))]
            figures[name]["footpod_events"] = dict(db.execute(
                "SELECT kind, count(*) FROM event WHERE session_id = ? AND kind LIKE 'footpod_%' GROUP BY kind",
                (sid,)).fetchall())
            if not figures[name]["stretches"]:
                problems.append("tunnel (footpod): no calibration stretch learnt on the way in")
        # Over two minutes: a shorter gap the core bridges at the speed before it, not with the chord.
        if not any(b["duration_s"] > 120 for b in bridged):
            problems.append(f"tunnel ({name}): no gap of over two minutes bridged: {bridged}")
    with_footpod, alone = figures.get("footpod"), figures.get("alone")
    if with_footpod and abs(with_footpod["error_pct"]) > 1:
        problems.append(f"tunnel: with the footpod {with_footpod['error_pct']} % from the truth (goal 1 %)")
    if alone and alone["error_pct"] > -5:
        problems.append(f"tunnel: the GPS alone should bridge with the chord, well short: {alone}")
    return figures


def main():
    out = sys.argv[1]
    problems = []
    sent = lines(os.path.join(out, "sent.jsonl"))
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
    figures["daemon"] = check_daemon(out, sent, problems)
    figures["tunnel"] = check_tunnel(out, problems)
    three = cpu_and_memory(out, "sensors")
    figures["daemon_cost"] = {"strap_footpod_treadmill": three}
    if os.path.exists(os.path.join(out, "stat-strap-end.txt")):
        strap = cpu_and_memory(out, "strap")
        figures["daemon_cost"].update({
            "strap_only": strap,
            "cpu_ratio": round(three["cpu_percent"] / strap["cpu_percent"], 2) if strap["cpu_percent"] else None,
            "rss_delta_kB": three["peak_rss_kB"] - strap["peak_rss_kB"],
        })
    print(json.dumps(figures, indent=1))
    for problem in problems:
        print(f"FAIL {problem}", file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
