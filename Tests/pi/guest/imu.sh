#!/bin/sh
# The wearable's IMU, for the test (run as root by Tests/pi/test_pi.py): a BMI160 made of the
# kernel's i2c-stub with Debian's bmi160 driver bound to it, as a HAT's would be once the device
# tree declares it, so that udev, the package's rule and wearbridge-iio@.service see a new
# accelerometer. `bind` prints the stub's bus; `play BUS LOG` writes Tests/iio/bmi160.py's gait
# into its data registers at 100 Hz, logging each true step.
set -eu
case ${1:-} in
bind)
    modprobe i2c-dev
    modprobe i2c-stub chip_addr=0x68
    bus=
    for adapter in /sys/bus/i2c/devices/i2c-*; do
        grep -q "SMBus stub driver" "$adapter/name" 2>/dev/null && bus=${adapter##*-}
    done
    [ -n "$bus" ] || { echo "imu.sh: the stub's bus did not appear" >&2; exit 2; }
    # The chip id (0xd1), the accelerometer at ±8 g and 100 Hz, the gyroscope at 100 Hz, gravity on z.
    i2cset -f -y "$bus" 0x68 0x00 0xd1 b
    i2cset -f -y "$bus" 0x68 0x40 0x28 b
    i2cset -f -y "$bus" 0x68 0x41 0x08 b
    i2cset -f -y "$bus" 0x68 0x42 0x28 b
    i2cset -f -y "$bus" 0x68 0x43 0x00 b
    i2cset -f -y "$bus" 0x68 0x12 0x00 0x00 0x00 0x00 0x00 0x10 i
    echo bmi160 0x68 > "/sys/bus/i2c/devices/i2c-$bus/new_device"
    echo "$bus"
    ;;
play)
    exec python3 /usr/local/lib/wearable-bmi160.py play "$2" 0x68 "$3"
    ;;
*)
    echo "usage: imu.sh bind | play BUS LOG" >&2
    exit 64
    ;;
esac
