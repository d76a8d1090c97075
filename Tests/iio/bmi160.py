#!/usr/bin/env python3
"""A BMI160 accelerometer's side of the IMU test, made of the kernel's i2c-stub: a gait synthesized
here with every step known (this file's own model, independent of the daemon's detector), written
into the stub's accelerometer data registers (0x12-0x17, x y z as little-endian s16) at the chip's
100 Hz while the kernel's bmi160 driver reads them in its triggered-buffer handler.

  bmi160.py play BUS ADDRESS LOG   # in the VM: plays the gait, logging each true step's uptime
  bmi160.py truth                  # the gait's bouts and step count, as JSON
  bmi160.py samples FILE           # the same samples (time x y z, m/s^2) into FILE, for the host

The gait: a standing start, a run at 170 steps a minute, a stop, a walk at 110 a minute, a stop.
A step is the heel's strike (a 30 ms pulse, about 9 m/s^2 running and 3 walking) on the body's
rise and fall at the step rate, with 3 % jitter in the step times, the sensor's noise, and the
device tilted on the hip. The registers are written at ±8 g (0x41 = 0x08, 2394 µm/s^2 a count).
"""
import ctypes
import fcntl
import json
import math
import os
import random
import sys
import time

RATE = 100.0
SCALE = 0.002394  # m/s^2 per count at ±8 g (the driver's scale for ACC_RANGE 0x08)
G = 9.80665
# (seconds, steps a minute, impact m/s^2): 0 steps a minute stands.
BOUTS = [(6, 0, 0), (60, 170, 9.0), (14, 0, 0), (24, 110, 3.0), (8, 0, 0)]


def gait(seed=44):
    rng = random.Random(seed)
    steps = []
    t = 0.0
    for seconds, cadence, impact in BOUTS:
        end = t + seconds
        if cadence:
            period = 60.0 / cadence
            nxt = t + period / 2
            while nxt < end:
                steps.append((nxt, impact * (1 + 0.1 * rng.gauss(0, 1)), period))
                nxt += period * (1 + 0.03 * rng.gauss(0, 1))
        t = end
    duration = t
    tilt, turn = 0.35, 1.1
    samples = []
    index = 0
    for i in range(int(duration * RATE)):
        now = i / RATE
        moving = any(start <= now < start + s and c for (start, (s, c, _)) in _starts())
        while index + 1 < len(steps) and steps[index + 1][0] <= now:
            index += 1
        vertical = 0.0
        for j in range(max(0, index - 1), min(len(steps), index + 3)):
            at, impact, period = steps[j]
            dt = now - at
            if abs(dt) > 1.5 * period:
                continue
            vertical += impact * (math.exp(-0.5 * (dt / 0.03) ** 2)
                                  + 0.3 * math.cos(2 * math.pi * dt / period) * math.exp(-0.5 * (dt / period) ** 2))
        noise = 0.25 if moving else 0.02
        up = G + vertical + rng.gauss(0, noise)
        forward = rng.gauss(0, noise)
        side = rng.gauss(0, noise)
        # The device tilted by `tilt` about an axis `turn` from x: gravity and the bounce spread
        # over its three axes.
        x = forward * math.cos(tilt) + up * math.sin(tilt) * math.cos(turn)
        y = side + up * math.sin(tilt) * math.sin(turn)
        z = up * math.cos(tilt) - forward * math.sin(tilt)
        samples.append((now, x, y, z))
    return samples, [s[0] for s in steps]


def _starts():
    start = 0.0
    out = []
    for bout in BOUTS:
        out.append((start, bout))
        start += bout[0]
    return out


def counts(value):
    return max(-32768, min(32767, int(round(value / SCALE))))


class I2CSmbusData(ctypes.Union):
    _fields_ = [("byte", ctypes.c_uint8), ("word", ctypes.c_uint16), ("block", ctypes.c_uint8 * 34)]


class I2CSmbusIoctlData(ctypes.Structure):
    _fields_ = [("read_write", ctypes.c_uint8), ("command", ctypes.c_uint8), ("size", ctypes.c_uint32),
                ("data", ctypes.POINTER(I2CSmbusData))]


I2C_SLAVE_FORCE = 0x0706
I2C_SMBUS = 0x0720
I2C_SMBUS_WRITE = 0
I2C_SMBUS_I2C_BLOCK_DATA = 8


def play(bus, address, log):
    samples, steps = gait()
    fd = os.open(f"/dev/i2c-{bus}", os.O_RDWR)
    fcntl.ioctl(fd, I2C_SLAVE_FORCE, address)
    data = I2CSmbusData()
    request = I2CSmbusIoctlData(I2C_SMBUS_WRITE, 0x12, I2C_SMBUS_I2C_BLOCK_DATA, ctypes.pointer(data))
    began = time.monotonic()
    step = 0
    late = 0
    skipped = 0
    written = 0
    index = 0
    with open(log, "w") as out:
        out.write(json.dumps({"began_uptime": uptime(), "steps": len(steps)}) + "\n")
        while index < len(samples):
            t = samples[index][0]
            wait = began + t - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            else:
                # Behind the gait's clock (the guest starved): the sample of now, not the ones
                # missed, so that what the driver reads is the gait at its own time, never a burst
                # of stale samples squeezed together.
                behind = int(-wait * RATE)
                if behind > 0:
                    late += 1
                    skipped += min(behind, len(samples) - 1 - index)
                    index = min(index + behind, len(samples) - 1)
                    t = samples[index][0]
            _, x, y, z = samples[index]
            index += 1
            written += 1
            raw = b"".join(counts(v).to_bytes(2, "little", signed=True) for v in (x, y, z))
            data.block[0] = 6
            for i, byte in enumerate(raw):
                data.block[1 + i] = byte
            fcntl.ioctl(fd, I2C_SMBUS, request)
            while step < len(steps) and steps[step] <= t:
                out.write(json.dumps({"step": step, "t": steps[step], "uptime": uptime()}) + "\n")
                step += 1
        out.write(json.dumps({"ended_uptime": uptime(), "late_writes": late, "skipped": skipped,
                              "written": written}) + "\n")
    os.close(fd)


def uptime():
    with open("/proc/uptime") as f:
        return float(f.read().split()[0])


def truth():
    samples, steps = gait()
    bouts = []
    start = 0.0
    for seconds, cadence, impact in BOUTS:
        inside = [s for s in steps if start <= s < start + seconds]
        bouts.append({"from_s": start, "seconds": seconds, "cadence": cadence, "steps": len(inside)})
        start += seconds
    return {"steps": len(steps), "seconds": start, "bouts": bouts, "rate_hz": RATE, "samples": len(samples)}


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "truth":
        print(json.dumps(truth()))
    elif len(sys.argv) == 5 and sys.argv[1] == "play":
        play(int(sys.argv[2]), int(sys.argv[3], 0), sys.argv[4])
    elif len(sys.argv) == 3 and sys.argv[1] == "samples":
        samples, _ = gait()
        with open(sys.argv[2], "w") as f:
            for t, x, y, z in samples:
                f.write(f"{t:.3f} {counts(x) * SCALE:.5f} {counts(y) * SCALE:.5f} {counts(z) * SCALE:.5f}\n")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
