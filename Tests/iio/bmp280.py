#!/usr/bin/env python3
"""A BMP280's registers as the kernel's bmp280 driver reads them, for the kernel's i2c-stub: the chip
id, the calibration words (Bosch's datasheet example, BST-BMP280-DS001 section 3.12) and the raw
pressure and temperature that compensate to a chosen pressure, by the datasheet's own 64-bit
integer compensation (the one the driver runs).

Usage: Tests/iio/bmp280.py profile OUT.txt   the registers for each second of the test's climb,
                                               one line each: seconds, kPa, then 0xF7..0xFC
       Tests/iio/bmp280.py calibration         i2cset's arguments for the chip id and calibration"""
import json
import sys

CHIP_ID = 0x58
# dig_T1..T3, dig_P1..P9 (datasheet's example: 25.08 degC and 100653.27 Pa at adc 519888 / 415148).
CALIBRATION = [27504, 26435, -1000, 36477, -10685, 3024, 2855, 140, -7, 15500, -14600, 6000]
TEMPERATURE_ADC = 519888


def tdiv(a, b):
    """C's integer division (towards zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def t_fine(adc_t, c=CALIBRATION):
    t1, t2, t3 = c[0], c[1], c[2]
    var1 = (((adc_t >> 3) - (t1 << 1)) * t2) >> 11
    var2 = (((((adc_t >> 4) - t1) * ((adc_t >> 4) - t1)) >> 12) * t3) >> 14
    return var1 + var2


def pressure_q24_8(adc_p, adc_t=TEMPERATURE_ADC, c=CALIBRATION):
    """Pascals times 256, as bmp280_compensate_press returns it."""
    p1, p2, p3, p4, p5, p6, p7, p8, p9 = c[3:]
    var1 = t_fine(adc_t, c) - 128000
    var2 = var1 * var1 * p6
    var2 = var2 + ((var1 * p5) << 17)
    var2 = var2 + (p4 << 35)
    var1 = ((var1 * var1 * p3) >> 8) + ((var1 * p2) << 12)
    var1 = (((1 << 47) + var1) * p1) >> 33
    if var1 == 0:
        return 0
    p = 1048576 - adc_p
    p = tdiv(((p << 31) - var2) * 3125, var1)
    var1 = (p9 * (p >> 13) * (p >> 13)) >> 25
    var2 = (p8 * p) >> 19
    return ((p + var1 + var2) >> 8) + (p7 << 4)


def kilopascal(adc_p):
    return pressure_q24_8(adc_p) / 256 / 1000


def adc_for(kpa):
    """The raw pressure (20 bits) whose compensated value is nearest `kpa`: it falls as adc rises."""
    low, high = 0, (1 << 20) - 1
    while high - low > 1:
        middle = (low + high) // 2
        if kilopascal(middle) > kpa:
            low = middle
        else:
            high = middle
    return min((low, high), key=lambda a: abs(kilopascal(a) - kpa))


def data_bytes(adc_p, adc_t=TEMPERATURE_ADC):
    """0xF7..0xFC: press_msb, lsb, xlsb (4 bits), temp_msb, lsb, xlsb."""
    return [(adc_p >> 12) & 0xFF, (adc_p >> 4) & 0xFF, (adc_p & 0xF) << 4,
            (adc_t >> 12) & 0xFF, (adc_t >> 4) & 0xFF, (adc_t & 0xF) << 4]


def calibration_bytes():
    out = []
    for i, word in enumerate(CALIBRATION):
        unsigned = word & 0xFFFF
        out += [unsigned & 0xFF, unsigned >> 8]
    return out


def altitude_to_kpa(metres, sea_level=101.325 + 0.4):
    return sea_level * (1 - metres / 44330.77) ** (1 / 0.190263)


# The climb the test plays: 20 s level, 24 m up over 60 s, 20 s level, 24 m down over 60 s, 40 s level.
def profile_altitude(t):
    base = 40.0
    if t < 20:
        return base
    if t < 80:
        return base + 24 * (t - 20) / 60
    if t < 100:
        return base + 24
    if t < 160:
        return base + 24 - 24 * (t - 100) / 60
    return base


PROFILE_SECONDS = 200


def main():
    if sys.argv[1:2] == ["calibration"]:
        print(" ".join(f"0x{b:02x}" for b in calibration_bytes()))
        return
    if sys.argv[1:2] == ["profile"] and len(sys.argv) == 3:
        with open(sys.argv[2], "w") as f:
            for t in range(PROFILE_SECONDS + 1):
                adc = adc_for(altitude_to_kpa(profile_altitude(t)))
                f.write(f"{t} {kilopascal(adc):.6f} " + " ".join(f"0x{b:02x}" for b in data_bytes(adc)) + "\n")
        return
    if sys.argv[1:2] == ["truth"]:
        gain = loss = 0.0
        previous = profile_altitude(0)
        for tenth in range(1, PROFILE_SECONDS * 10 + 1):
            h = profile_altitude(tenth / 10)
            gain += max(0, h - previous)
            loss += max(0, previous - h)
            previous = h
        print(json.dumps({"gain_m": round(gain, 2), "loss_m": round(loss, 2)}))
        return
    sys.exit(__doc__)


if __name__ == "__main__":
    main()
