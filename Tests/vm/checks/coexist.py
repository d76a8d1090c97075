#!/usr/bin/env python3
"""Judges the cases beside bluetoothd (DIR/NAME/cases.jsonl, one line per case from
Tests/vm/guest/coexist.sh) and prints their figures as a table: how soon the first beat came, how
soon the strap was back or taken, which are figures for docs/benchmarks.md (software emulation under
load stretches them), not checks. Exit 1 with every failed rule named."""
import json
import os
import sys


def load(directory):
    cases = {}
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name, "cases.jsonl")
        if os.path.exists(path):
            for line in open(path):
                if line.strip():
                    entry = json.loads(line)
                    cases[entry["case"]] = entry
    return cases


def main():
    cases = load(sys.argv[1])
    failures = []

    def rule(case, holds, text):
        if case not in cases:
            return
        try:
            ok = holds(cases[case])
        except (KeyError, TypeError):
            ok = False
        if not ok:
            failures.append(f"{case}: {text} ({json.dumps(cases[case])})")

    print(f"{'case':26} {'sent':>5} {'recorded':>8} {'link':10} figures")
    for name, c in cases.items():
        extra = {k: v for k, v in c.items()
                 if k not in ("case", "beats", "link", "sent", "seconds", "cpu_ticks", "peak_rss_kb", "daemon_rc")}
        print(f"{name:26} {c['sent']:>5} {c['beats']:>8} {c['link']:10} {json.dumps(extra)}")
    for name, c in cases.items():
        rule(name, lambda c: c["daemon_rc"] == 0, "the daemon stopped cleanly")
        if name not in ("kernel_under_discovery", "pairings"):
            rule(name, lambda c: c["beats"] <= c["sent"], "no more beats recorded than sent")
    rule("desktop_discovery", lambda c: c["beats"] >= 15 and c["link"] == "streaming",
         "first-seen found and streamed the strap while another program's discovery ran")
    rule("desktop_discovery", lambda c: c["desktop_still_discovering"] == 1,
         "the other program's discovery still running afterwards")
    rule("other_connects_first", lambda c: c["beats"] >= 16 and c["link"] == "streaming",
         "streamed over the link another program made, and again after its disconnect")
    rule("other_connects_first", lambda c: c["recovery_s"] > 0, "recovered after another program's disconnect")
    rule("held", lambda c: "another program" in (c["shown_held_by"] or ""), "status said held, and by what")
    rule("held", lambda c: c["taken_after_release_s"] > 0 and c["beats"] >= 5,
         "took the strap once the other program let go")
    rule("kernel_held", lambda c: "EBUSY" in (c["shown_held_by"] or ""), "the kernel's path said held (EBUSY)")
    for stack in ("bluez", "kernel"):
        rule(f"footprint_{stack}", lambda c: c["link"] == "streaming" and c["beats"] >= 35,
             f"streamed 40 s through {stack}")
    rule("sensors", lambda c: c["footpod_samples"] >= 20 and c["treadmill_samples"] >= 30
         and c["footpod_link"] == "streaming" and c["treadmill_link"] == "streaming",
         "the footpod and the treadmill streamed through bluetoothd beside the strap")
    rule("sensors", lambda c: c["footpod_connections"] >= 2, "the footpod came back after its drop")
    rule("sensors", lambda c: c["through_bluez"] >= 3, "all three connected through bluetoothd")
    rule("bonded", lambda c: c["paired"] == 1 and c["beats"] >= 35,
         "bonded through the agent and streamed across the strap's drop")
    rule("bonded_restart", lambda c: c["beats"] >= 5, "a restarted daemon streamed with the bond")
    rule("pairings", lambda c: c["pairings_seen_by_strap"] == 1,
         "the strap paired once in all the cases, never asked again")
    if "footprint_bluez" in cases and "footprint_kernel" in cases:
        b, k = cases["footprint_bluez"], cases["footprint_kernel"]
        print(f"footprint over {b['seconds']:.0f}/{k['seconds']:.0f} s: CPU ticks bluez {b['cpu_ticks']} / kernel "
              f"{k['cpu_ticks']} = {b['cpu_ticks'] / max(1, k['cpu_ticks']):.2f}; peak RSS {b['peak_rss_kb']} / "
              f"{k['peak_rss_kb']} kB = {b['peak_rss_kb'] / max(1, k['peak_rss_kb']):.2f}; first beat "
              f"{b['first_beat_s']} / {k['first_beat_s']} s")
    if failures:
        print("\n".join(["check-ble-coexist: FAILED"] + failures), file=sys.stderr)
        return 1
    print(f"check-ble-coexist: {len(cases)} cases passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
