#!/usr/bin/env python3
"""How noisy the simulated sessions' Doppler is (data/gps), and of which kind.

For each session: the speed's and the course's residuals from a local quadratic fit (Savitzky-Golay,
centre point) while moving, scaled to the per-epoch noise, and how a standing receiver reports its
speed: exactly 0 about half the time means a speed noised on its own and clipped at zero (unbiased
while moving); none at 0 means a speed taken from a noisy velocity vector (reads high by about
sigma^2 / 2v). `HonestReceiver` in Sources/Tools/SyntheticReceivers takes its noise from these figures.

Usage: scripts/bench/doppler-noise.py [DATA_DIR]   (default data/gps)
"""
import json
from datetime import datetime
import math
import os
import sys


def savitzky_golay_centre(w):
    """Weights of the centre value of a quadratic least-squares fit over 2w+1 points."""
    m = w
    denominator = (2 * m - 1) * (2 * m + 1) * (2 * m + 3)
    return [(3 * (3 * m * m + 3 * m - 1) - 15 * i * i) / denominator for i in range(-m, m + 1)]


def residual_sigma(values, w):
    weights = savitzky_golay_centre(w)
    residuals = [values[i] - sum(c * values[i - w + k] for k, c in enumerate(weights))
                 for i in range(w, len(values) - w)]
    if not residuals:
        return float("nan")
    # The centre residual of white noise has variance sigma^2 (1 - h), h the centre weight.
    rms = math.sqrt(sum(r * r for r in residuals) / len(residuals))
    return rms / math.sqrt(1 - weights[w])


def session(path):
    tpv = []
    with open(path) as f:
        for line in f:
            if '"TPV"' not in line:
                continue
            fix = json.loads(line)
            if fix.get("mode", 0) >= 2 and fix.get("speed") is not None:
                tpv.append(fix)
    moving = [t for t in tpv if "track" in t and t["speed"] > 1]
    standing = [t["speed"] for t in tpv if t["speed"] < 0.4]
    seconds = sorted({datetime.fromisoformat(t["time"].replace("Z", "+00:00")).timestamp() for t in tpv})
    steps = sorted(b - a for a, b in zip(seconds, seconds[1:]))
    interval = steps[len(steps) // 2] if steps else 1.0
    # A window of about a second each side at 10 Hz; two epochs each side at 1 Hz.
    rate_w = max(2, round(1 / interval))
    speed = [t["speed"] for t in moving]
    course = [math.radians(t["track"]) for t in moving]
    unwrapped = course[:1]
    for c in course[1:]:
        unwrapped.append(unwrapped[-1] + math.remainder(c - unwrapped[-1], 2 * math.pi))
    mean_speed = sum(speed) / max(len(speed), 1)
    return {
        "speed_sigma": residual_sigma(speed, rate_w),
        "course_sigma_deg": math.degrees(residual_sigma(unwrapped, rate_w)),
        "mean_speed": mean_speed,
        "standing": len(standing),
        "standing_zero": sum(1 for s in standing if s == 0),
    }


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(__file__), "..", "..", "data", "gps")
    print(f"{'session':<20} {'speed sigma m/s':>16} {'course sigma deg':>17} {'mean speed':>11} {'standing: at 0':>16}")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".jsonl"):
            continue
        r = session(os.path.join(folder, name))
        zeros = f"{r['standing_zero']}/{r['standing']}" if r["standing"] else "-"
        print(f"{name[:-6]:<20} {r['speed_sigma']:>16.3f} {r['course_sigma_deg']:>17.2f} {r['mean_speed']:>11.2f} {zeros:>16}")


if __name__ == "__main__":
    main()
