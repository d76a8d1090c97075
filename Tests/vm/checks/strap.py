#!/usr/bin/env python3
"""Checks a Bluetooth VM run of the daemon (Tests/vm/test_vm.py, the strap's case) and prints its figures.

What the session recorded must be exactly the valid payloads the strap sent while connected:
every recorded beat is a valid payload the strap sent, in the order sent, none twice, none
invented; every truncated payload delivered is an `hrm_malformed` event, never a beat; the
daemon reconnected after each drop; strap and contact events and the battery are in the log.
Payloads the strap sent but the daemon did not record (between link set-up and subscription,
or in flight when the link dropped) are counted per connection and bounded.

Usage: Tests/vm/checks/strap.py OUT_DIR [--drops N]
Exit 0 when every check passes.
"""
import argparse
import json
import re
import sys
from collections import Counter


def load_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def strap_log(path):
    """(t, message) from the virtual world's '[world +  12.345s] strap: message' lines."""
    out = []
    with open(path) as f:
        for line in f:
            m = re.match(r"\[world \+\s*([0-9.]+)s\] strap: (.*)", line)
            if m:
                out.append((float(m.group(1)), m.group(2).strip()))
    return out


def match_beats(valid, beats):
    """Pairs each recorded beat with the sending it is: the same bytes, sent nearest to when it was
    received once the offset between the strap's clock and the daemon's is taken out.

    Payloads repeat (the same bpm and RR on the way up and on the way down, or a steady pulse), and
    a repeat can fall on both sides of a dropped link or of the session's end; matching by bytes and
    order alone then pairs a beat with the wrong sending and calls the right one lost while
    streaming. The offset is the median over beats whose payload was sent once; without any, the
    latest sending that keeps the order is taken. Returns (matched sendings in the beats' order,
    sendings not matched, number of beats that match no sending)."""
    counts = Counter(s["hex"] for s in valid)
    once = {s["hex"]: s for s in valid if counts[s["hex"]] == 1}
    offsets = sorted(b["received"] - once[b["payload"]]["t"] for b in beats
                     if b["payload"] in once and "received" in b)
    offset = offsets[len(offsets) // 2] if offsets else None
    matched, used, unmatched, after = [], set(), 0, -1
    for b in beats:
        candidates = [i for i in range(after + 1, len(valid)) if valid[i]["hex"] == b["payload"]]
        if offset is not None and "received" in b:
            # Among the sendings after the last one paired (which keeps the order), the nearest in time.
            candidates.sort(key=lambda i: abs(valid[i]["t"] + offset - b["received"]))
        if not candidates:
            unmatched += 1
            continue
        after = candidates[0]
        used.add(after)
        matched.append(valid[after])
    missed = [s for i, s in enumerate(valid) if i not in used]
    return matched, missed, unmatched


def timings(path):
    values = {}
    try:
        with open(path) as f:
            for line in f:
                if "=" in line:
                    k, v = line.strip().split("=", 1)
                    values.setdefault(k, v)
    except FileNotFoundError:
        pass
    return values


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--drops", type=int, default=2)
    a = ap.parse_args()
    out = a.out
    failures = []

    def check(ok, what):
        print(("ok    " if ok else "FAIL  ") + what)
        if not ok:
            failures.append(what)

    try:
        sent = [s for s in load_jsonl(f"{out}/sent.jsonl") if s["device"] == "strap"]
        with open(f"{out}/session.json") as f:
            session = json.load(f)
    except (OSError, ValueError) as error:
        print(f"FAIL  the run left no usable results in {out}: {error} (see cmd.log and daemon.log there)")
        return 1
    beats = session.get("beats") or []
    events = session.get("events") or []
    log = strap_log(f"{out}/world.log")

    # Connection windows in the strap's clock: from "connection from" to "disconnected".
    windows, start = [], None
    for t, msg in log:
        if msg.startswith("connection from"):
            start = t
        elif msg.startswith("disconnected") and start is not None:
            windows.append((start, t))
            start = None
    if start is not None:
        windows.append((start, float("inf")))
    away = [(t, float(re.search(r"for ([0-9.]+)s", msg).group(1))) for t, msg in log if msg.startswith("out of range")]

    # The main session ends with its last recorded beat; later connections are the first-seen phase.
    def window_of(t):
        for i, (a_, b_) in enumerate(windows):
            if a_ <= t <= b_:
                return i
        return None

    # 1. Recorded beats against the valid payloads sent, in order (a subsequence, nothing extra),
    # each paired with its sending by bytes and time (`match_beats`).
    valid = [s for s in sent if s["kind"] == "valid"]
    recorded = [b["payload"] for b in beats]
    matched, missed, j = match_beats(valid, beats)
    check(j == 0, f"every recorded beat is a valid payload the strap sent, in order "
                  f"({len(recorded) - j} of {len(recorded)} matched)")
    check(len(recorded) > 0, f"beats were recorded ({len(recorded)})")
    malformed_hex = {s["hex"] for s in sent if s["kind"] == "malformed"}
    check(not any(r in malformed_hex and r not in {v["hex"] for v in valid} for r in recorded),
          "no truncated payload was recorded as a beat")

    # Decoded fields agree with what the strap meant.
    wrong = [(b, s) for b, s in zip(beats, matched)
             if b["bpm"] != s["bpm"] or b["rr_1024"] != s["rr_1024"]
             or b["contact"] != ("detected" if s["contact"] else "not_detected")
             or b.get("energy_kj") != s.get("energy_kj")]
    check(not wrong, f"bpm, RR, contact and energy of every beat are what the strap sent ({len(wrong)} differ)")

    # Connections of the main session: those that began before its last recorded beat.
    last_main_t = matched[-1]["t"] if matched else float("inf")
    main_windows = [w for w in windows if w[0] <= last_main_t]
    later_windows = len(windows) - len(main_windows)

    # 2. Malformed payloads delivered while connected are events, not beats: every one the strap sent
    # while the daemon was streaming and the session open is logged; none is logged that it did not send.
    first_in_window = {}
    for s_ in matched:
        first_in_window.setdefault(window_of(s_["t"]), s_["t"])
    malformed_events = [e for e in events if e["kind"] == "hrm_malformed"]
    malformed_sent = [s_ for s_ in sent if s_["kind"] == "malformed"]
    in_main = [s_ for s_ in malformed_sent if window_of(s_["t"]) is not None and window_of(s_["t"]) < len(main_windows)]
    streaming = [s_ for s_ in in_main if s_["t"] > first_in_window.get(window_of(s_["t"]), float("inf"))
                 and s_["t"] < last_main_t]
    logged_hex = [e["detail"].get("payload") for e in malformed_events]
    j = 0
    for s_ in in_main:
        if j < len(logged_hex) and logged_hex[j] == s_["hex"]:
            j += 1
    check(len(streaming) <= len(malformed_events) <= len(in_main) and len(malformed_events) >= 1,
          f"truncated payloads logged as hrm_malformed ({len(malformed_events)}; sent while streaming "
          f"{len(streaming)}, while connected {len(in_main)})")
    check(j == len(logged_hex), "every hrm_malformed event carries a truncated payload the strap sent, in order")

    # 3. Reconnection after every drop, and the events.
    kinds = [e["kind"] for e in events]
    drops = [t for t, msg in log if msg.startswith("dropping the link")]
    check(len(drops) == a.drops, f"the strap dropped the link {a.drops} times ({len(drops)})")
    check(len(main_windows) == a.drops + 1, f"the daemon connected {a.drops + 1} times ({len(main_windows)})")
    check(kinds.count("strap_found") == 1, f"one strap_found ({kinds.count('strap_found')})")
    check(kinds.count("strap_lost") == a.drops, f"strap_lost once per drop ({kinds.count('strap_lost')})")
    check(kinds.count("strap_regained") == a.drops, f"strap_regained once per drop ({kinds.count('strap_regained')})")
    battery = [e for e in events if e["kind"] == "strap_battery"]
    check(bool(battery) and battery[0]["detail"].get("percent") == 80, "strap_battery 80% logged")
    contact_off = [s for s in matched if not s["contact"]]
    if contact_off:
        check("contact_lost" in kinds and "contact_regained" in kinds,
              "contact_lost and contact_regained logged around the recorded no-contact beats")

    # 4. Losses per connection: sent while connected (and before the session ended: the last
    # recorded beat) but not recorded. Before the first recorded beat of a connection the strap
    # "sends" to nobody (notifications are not enabled yet); after it, nothing may be missing.
    last_recorded_t = matched[-1]["t"] if matched else float("inf")
    before_subscription = [0] * len(windows)
    while_streaming = [0] * len(windows)
    for s_ in missed:
        w = window_of(s_["t"])
        if w is None or s_["t"] > last_recorded_t:
            continue
        if s_["t"] < first_in_window.get(w, float("inf")):
            before_subscription[w] += 1
        else:
            while_streaming[w] += 1
    before_subscription = before_subscription[:len(main_windows)]
    while_streaming = while_streaming[:len(main_windows)]
    # The strap "sends" to nobody until our CCCD write: about one beat at 1 Hz, more only if discovery
    # is slow (a loaded, emulated machine); bounded so that a stuck subscription still fails.
    check(all(n <= 3 for n in before_subscription),
          f"at most three beats sent before notifications were on, per connection {before_subscription}")
    check(all(n == 0 for n in while_streaming), f"no beat lost while streaming {while_streaming}")
    lost_per_connection = [a_ + b_ for a_, b_ in zip(before_subscription, while_streaming)]

    # The core's figures agree with the beats in the log (those with skin contact count).
    counted = [b["bpm"] for b in beats if b["contact"] != "not_detected" and 20 <= b["bpm"] <= 250]
    figures = (session.get("summary") or {}).get("heart_rate") or {}
    check(figures.get("samples") == len(counted) and counted
          and abs(figures.get("average_bpm", 0) - sum(counted) / len(counted)) < 0.06
          and figures.get("max_bpm") == max(counted),
          f"session heart-rate figures match the logged beats ({figures})")

    # 5. Status from the daemon at the end of the run.
    with open(f"{out}/status.json") as f:
        status = json.load(f).get("status", {})
    hr = status.get("heart_rate") or {}
    check(hr.get("link") == "streaming" and hr.get("battery_percent") == 80 and hr.get("bpm"),
          f"ctl status shows the strap streaming with bpm and battery ({hr})")

    # 6. `scan` lists the strap; a "first-seen" daemon found it, recorded it and remembered it.
    try:
        scanned = [json.loads(line) for line in open(f"{out}/scan.json") if line.strip()]
    except (OSError, ValueError):
        scanned = []
    check(any(r.get("address") == "F1:F1:F1:F1:F1:F1" and r.get("address_type") == "random" and r.get("heart_rate")
              and r.get("rssi") is not None for r in scanned), f"scan lists the strap with its type and RSSI ({scanned})")
    try:
        remembered = open(f"{out}/remembered-strap").read().strip()
        first_seen = json.load(open(f"{out}/status-first-seen.json"))["status"].get("heart_rate") or {}
    except (OSError, ValueError, KeyError):
        remembered, first_seen = "", {}
    check(remembered == "F1:F1:F1:F1:F1:F1 random", f"first-seen remembered the strap ({remembered!r})")
    check(first_seen.get("beats", 0) > 0 and later_windows >= 1,
          f"the first-seen daemon connected and recorded beats ({first_seen.get('beats')})")

    # Figures.
    tm = timings(f"{out}/e2e-timings")
    print("figures:")
    print(f"  beats sent valid {len(valid)}, recorded {len(recorded)}; malformed sent {len(malformed_sent)} "
          f"(while connected {len(in_main)}), logged {len(malformed_events)}")
    print(f"  beats lost per connection (sent while connected, not recorded): {lost_per_connection}")
    if "daemon_start" in tm and beats:
        # Both on the guest's monotonic clock (uptime and CLOCK_MONOTONIC agree in a VM that never sleeps).
        first_beat_guest = beats[0]["received"]
        print(f"  daemon process start -> first recorded beat: {first_beat_guest - float(tm['daemon_start']):.2f} s "
              f"(includes loading the binary over 9p, `ctl start` as a second process, connect, discovery "
              f"and the strap's next 1 Hz beat)")
        for (t_drop, away_s) in away:
            back = t_drop + away_s
            after = [s for s in matched if s["t"] > back]
            if after:
                print(f"  strap in range again at {back:.1f} s (daemon waiting) -> first recorded beat "
                      f"{after[0]['t'] - back:.2f} s later")
    try:
        stat = open(f"{out}/daemon-stat.txt").read().split(")")[-1].split()
        tck = int(open(f"{out}/clk-tck.txt").read())
        cpu = (int(stat[11]) + int(stat[12])) / tck
        mem = open(f"{out}/daemon-mem.txt").read().split()
        print(f"  daemon CPU time over the run {cpu:.2f} s (guest, TCG-emulated); {' '.join(mem)}")
    except (OSError, ValueError, IndexError):
        pass
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
