#!/usr/bin/env bash
# A barometer and an IMU through real kernel drivers, with no hardware: Debian's kernel in qemu
# (Tests/vm/hostroot.py), the kernel's i2c-stub as the I2C bus. First its bmp280 driver bound to
# it: the test writes a climb's raw pressures into the stub's registers while gpsfake plays a run to
# a real gpsd, and the daemon reads the barometer through the driver and sysfs as on a Pi
# (scripts/barometer-e2e-guest.sh). Then, in the same boot, its bmi160 driver: a gait written into
# the accelerometer's registers at 100 Hz, read by the daemon buffered through /dev/iio:deviceN
# with an hrtimer trigger (scripts/imu-e2e-guest.sh). Checked afterwards by
# Tests/iio/check_barometer.py and Tests/iio/check_imu.py. Needs root.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${BLE_VM_WORK:-/var/tmp/ble-vm}
swift build --product wearbridge
files=$(mktemp -d /var/tmp/wearbridge-barometer.XXXXXX)
trap 'rm -rf "$files"' EXIT
python3 Tests/iio/bmp280.py profile "$files/profile.txt"
python3 Tests/iio/bmp280.py calibration > "$files/calibration.txt"
# The first four minutes of a track session (a 10 s standing start, then running), for gpsfake.
python3 - data/gps/track_3k_laps.nmea "$files/run.nmea" <<'PY'
import sys
source, target = sys.argv[1], sys.argv[2]
epochs = []
with open(source) as f:
    for line in f:
        if line.startswith("$GPRMC"):
            epochs.append([])
        if epochs:
            epochs[-1].append(line)
with open(target, "w") as f:
    for epoch in epochs[:280]:
        f.writelines(epoch)
PY
python3 Tests/vm/hostroot.py --work "$WORK" --timeout 900 \
    --copy "$(swift build --show-bin-path)/wearbridge" --copy scripts/barometer-e2e-guest.sh \
    --copy scripts/imu-e2e-guest.sh --copy Tests/iio/bmi160.py \
    --copy "$files/profile.txt" --copy "$files/calibration.txt" --copy "$files/run.nmea" \
    "sh $WORK/bin/barometer-e2e-guest.sh $WORK/bin/wearbridge $WORK/bin/run.nmea $WORK/bin/profile.txt &&
     sh $WORK/bin/imu-e2e-guest.sh $WORK/bin/wearbridge $WORK/bin/bmi160.py" || {
    status=$?
    echo "iio-e2e: the VM run failed (exit $status); its files: $WORK/out" >&2
    exit "$status"
}
cp "$files/profile.txt" "$WORK/out/barometer-profile.txt"
status=0
python3 Tests/iio/check_barometer.py "$WORK/out" "$(python3 Tests/iio/bmp280.py truth)" || status=1
python3 Tests/iio/check_imu.py "$WORK/out" "$(python3 Tests/iio/bmi160.py truth)" || status=1
exit "$status"
