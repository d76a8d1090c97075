#!/bin/sh
# Runs inside the VM (Tests/vm/hostroot.py, the barometer's case of Tests/vm/test_vm.py): a BMP280 barometer made
# of the kernel's i2c-stub (a fake I2C bus whose registers userspace writes) with Debian's bmp280
# driver bound to it, as a Pi HAT's would be. The chip id and calibration go into the stub's
# registers, the driver probes it, and while gpsfake plays a run to a real gpsd the test writes the
# raw pressure of a climb into the data registers each second (PROFILE: Tests/iio/bmp280.py's
# lines). The daemon reads the barometer through the driver and sysfs; then the device is removed
# and added again.
# Usage: barometer.sh WEARBRIDGE_BINARY NMEA PROFILE
set -u
B=$1
NMEA=$2
PROFILE=$3
up() { cut -d' ' -f1 /proc/uptime; }
say() { echo "[barometer $(up)s] $1"; echo "$1=$(up)" >> "$OUT/barometer-timings"; }
: > "$OUT/barometer-timings"
release=$(uname -r)
insmod "/usr/lib/modules/$release/kernel/drivers/i2c/i2c-stub.ko" chip_addr=0x76 || { echo "no i2c-stub"; exit 2; }
bus=
for adapter in /sys/bus/i2c/devices/i2c-*; do
  grep -q "SMBus stub driver" "$adapter/name" 2>/dev/null && bus=${adapter##*-}
done
[ -n "$bus" ] || { echo "the stub's bus did not appear"; ls /sys/bus/i2c/devices; exit 2; }
[ -e "/dev/i2c-$bus" ] || { echo "no /dev/i2c-$bus (i2c-dev)"; exit 2; }
say stub_ready
# The chip id (0x58 is a BMP280), its calibration words at 0x88, the status idle, the data registers.
i2cset -f -y "$bus" 0x76 0xd0 0x58 b || exit 2
# shellcheck disable=SC2046 # the calibration's bytes, as words
i2cset -f -y "$bus" 0x76 0x88 $(cat "$(dirname "$PROFILE")/calibration.txt") i || exit 2
i2cset -f -y "$bus" 0x76 0xf3 0x00 b || exit 2
# shellcheck disable=SC2046
i2cset -f -y "$bus" 0x76 0xf7 $(head -1 "$PROFILE" | cut -d' ' -f3-) i || exit 2
echo bmp280 0x76 > "/sys/bus/i2c/devices/i2c-$bus/new_device"
device=
i=0
while [ -z "$device" ]; do
  for d in /sys/bus/iio/devices/iio:device*; do
    [ "$(cat "$d/name" 2>/dev/null)" = bmp280 ] && device=$d
  done
  i=$((i+1)); [ $i -gt 600 ] && { echo "the bmp280 driver did not bind in 60 s"; dmesg | tail -20; exit 3; }
  [ -n "$device" ] || sleep 0.1
done
say bound
echo "$device" > "$OUT/barometer-device.txt"
cat "$device/in_pressure_input" > "$OUT/barometer-first-read.txt" || { dmesg | tail -20; exit 3; }
cat "$device/in_temp_input" > "$OUT/barometer-first-temp.txt" 2>/dev/null
dmesg > "$OUT/barometer-dmesg.txt"

D=/tmp/wearbridge-barometer
rm -rf "$D"; mkdir -p "$D/data"
cat > "$D/wearbridge.toml" <<CONF
[gpsd]
host = "127.0.0.1"
port = 2947
[storage]
directory = "$D/data"
[control]
socket = "$D/control.sock"
[session]
activity = "running"
[cues]
enabled = false
[barometer]
device = "bmp280"
interval = 1
CONF
C="--config $D/wearbridge.toml"
mkdir -p /dev/pts
mountpoint -q /dev/pts || mount -t devpts devpts /dev/pts
ip link set lo up
# Three sentences an epoch (RMC, GGA, GSA): one epoch a second.
gpsfake -1 -q -c 0.333 -P 2947 "$NMEA" > "$OUT/barometer-gpsfake.log" 2>&1 &
GPSFAKE=$!
"$B" run $C > "$OUT/barometer-daemon.log" 2>&1 &
PID=$!
i=0
until [ -S "$D/control.sock" ]; do
  i=$((i+1)); [ $i -gt 2400 ] && { echo "control socket never appeared"; cat "$OUT/barometer-daemon.log"; exit 4; }
  kill -0 $PID 2>/dev/null || { echo "daemon died"; cat "$OUT/barometer-daemon.log"; exit 4; }
  sleep 0.05
done
sleep 8  # gpsd has the run's first fixes
"$B" ctl start $C > "$OUT/barometer-start.txt" || { cat "$OUT/barometer-start.txt"; exit 5; }
say started
# The climb: each second the next raw pressure into the data registers, as the chip's ADC would.
while read -r t kpa bytes; do
  # shellcheck disable=SC2086 # the six data bytes
  i2cset -f -y "$bus" 0x76 0xf7 $bytes i
  echo "$t $kpa $(up)" >> "$OUT/barometer-written.txt"
  sleep 1
done < "$PROFILE"
say profile_played
"$B" ctl status --json $C > "$OUT/barometer-status-reading.json"
"$B" ctl status $C > "$OUT/barometer-status-reading.txt"
# The device removed (a HAT unplugged, a driver unbound): its reads fail, the daemon says so and
# looks for it again; added back, it is read again.
echo 0x76 > "/sys/bus/i2c/devices/i2c-$bus/delete_device"
say removed
sleep 14
"$B" ctl status --json $C > "$OUT/barometer-status-removed.json" || exit 6
echo bmp280 0x76 > "/sys/bus/i2c/devices/i2c-$bus/new_device"
say added
i=0
until "$B" ctl status --json $C | grep -q '"state":"reading"' && [ "$i" -gt 2 ]; do
  i=$((i+1)); [ $i -gt 60 ] && break
  sleep 1
done
say reading_again
"$B" ctl status --json $C > "$OUT/barometer-status-again.json"
"$B" ctl end $C > "$OUT/barometer-end.txt" || exit 7
kill $GPSFAKE 2>/dev/null
kill -TERM $PID
wait $PID
echo "daemon_rc=$?" >> "$OUT/barometer-timings"
"$B" sessions --json $C > "$OUT/barometer-sessions.json"
cp "$D/data/wearbridge.sqlite" "$OUT/barometer-data.sqlite"
[ -f "$D/data/wearbridge.sqlite-wal" ] && cp "$D/data/wearbridge.sqlite-wal" "$OUT/barometer-data.sqlite-wal"
id=$(sed -n 's/.*"id" *: *"\([^"]*\)".*/\1/p' "$OUT/barometer-sessions.json" | head -1)
"$B" show "$id" --json $C > "$OUT/barometer-show.json"
"$B" show "$id" $C > "$OUT/barometer-show.txt"
exit 0
