#!/usr/bin/env python3
"""A run through a bending tunnel as a GPS receiver reports it (NMEA for gpsfake) and as the
truth has it (metres run by each second, for the virtual footpod that runs the same route).

Standing still for `preroll` seconds at the start (so gpsd has a fix before the session), then
80 s east at 3 m/s, the tunnel (30 s north, 60 s west, 30 s north: over two minutes without a fix,
status V and quality 0, so GPS alone bridges it with the chord), 60 s east. Positions carry 0.7 m of noise; speed and course are the route's.
Usage: tunnel_route.py NMEA_OUT JSON_OUT [--preroll 20]"""
import argparse
import json
import math
import random

ORIGIN = (48.137, 11.575)
BASE = 1_750_000_000  # GPS time of the first epoch (consistent, not the wall clock)
LEGS = [(90, 3.0, 80), (0, 3.0, 30), (270, 3.0, 60), (0, 3.0, 30), (90, 3.0, 60)]
TURN = 3.0


def checksum(body):
    value = 0
    for byte in body.encode("ascii"):
        value ^= byte
    return f"{value:02X}"


def sentence(body):
    return f"${body}*{checksum(body)}"


def degrees_minutes(value, width):
    whole = int(abs(value))
    minutes = (abs(value) - whole) * 60
    return f"{whole:0{width}d}{minutes:07.4f}"


def sample():
    """(east, north, speed, heading, metres run) at every whole second of the moving part."""
    step = 0.01
    heading, speed, east, north, run, t = LEGS[0][0], 0.0, 0.0, 0.0, 0.0, 0.0
    out, next_sample = [], 0.0
    for target, leg_speed, duration in LEGS:
        start_heading, start_speed = heading, speed
        turn_by = (target - start_heading + 540) % 360 - 180
        local = 0.0
        while local < TURN + duration - step / 2:
            if t >= next_sample - 1e-9:
                out.append((east, north, speed, heading % 360, run))
                next_sample += 1
            f = min(1.0, local / TURN)
            heading = start_heading + turn_by * f
            speed = start_speed + (leg_speed - start_speed) * f
            radians = math.radians(heading)
            east += speed * math.sin(radians) * step
            north += speed * math.cos(radians) * step
            run += speed * step
            local += step
            t += step
    out.append((east, north, speed, heading % 360, run))
    return out


def tunnel_window():
    """Seconds (of the moving part) without a fix: the three middle legs with their turns."""
    first = LEGS[0][2] + TURN
    return first, first + sum(TURN + d for _, _, d in LEGS[1:4])


def write(nmea_path, json_path, preroll):
    rng = random.Random(5)
    states = sample()
    inside = tunnel_window()
    lines = []
    for k in range(preroll + len(states)):
        moving = k - preroll
        east, north, speed, heading, _ = states[max(0, moving)]
        if moving < 0:
            speed = 0.0
        t = BASE + k
        hms = f"{(t // 3600) % 24:02d}{(t // 60) % 60:02d}{t % 60:02d}.00"
        date = "150625"
        if moving >= 0 and inside[0] <= moving <= inside[1]:
            lines.append(sentence(f"GPRMC,{hms},V,,,,,,,{date},,,N"))
            lines.append(sentence(f"GPGGA,{hms},,,,,0,00,99.9,,M,,M,,"))
            continue
        east += rng.gauss(0, 0.7)
        north += rng.gauss(0, 0.7)
        lat = ORIGIN[0] + north / 111_320
        lon = ORIGIN[1] + east / (111_320 * math.cos(math.radians(ORIGIN[0])))
        pos = f"{degrees_minutes(lat, 2)},N,{degrees_minutes(lon, 3)},E"
        lines.append(sentence(f"GPRMC,{hms},A,{pos},{speed / 0.514444:.3f},{heading:.1f},{date},,,A"))
        lines.append(sentence(f"GPGGA,{hms},{pos},1,09,0.9,520.0,M,47.0,M,,"))
    with open(nmea_path, "w") as f:
        f.write("\r\n".join(lines) + "\r\n")
    with open(json_path, "w") as f:
        json.dump({"preroll": preroll, "sentences_per_epoch": 2, "tunnel_s": list(inside),
                   "truth_m": [round(s[4], 3) for s in states], "distance_m": round(states[-1][4], 3)}, f)
    return states[-1][4]


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("nmea")
    ap.add_argument("json")
    ap.add_argument("--preroll", type=int, default=20)
    a = ap.parse_args()
    print(f"route: {write(a.nmea, a.json, a.preroll):.1f} m")
