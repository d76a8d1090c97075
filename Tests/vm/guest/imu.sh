#!/bin/sh
# Runs inside the VM (Tests/vm/hostroot.py, the IMU's case of Tests/vm/test_vm.py, after the barometer's): a
# BMI160 IMU made of the kernel's i2c-stub with Debian's bmi160 driver bound to it, as a Pi HAT's
# would be. The chip id and the accelerometer's range and rate go into the stub's registers, the
# driver probes it, and the daemon sets up its buffer with an iio-trig-hrtimer trigger it makes in
# configfs. While an indoor session is open, Tests/iio/bmi160.py writes a gait into the data
# registers at 100 Hz, logging every true step; the driver reads them in its triggered-buffer
# handler. Then the device is removed and added back; last, the daemon's CPU with the IMU off,
# over the same time, for the ratio.
# Usage: imu.sh WEARBRIDGE_BINARY BMI160_PY
set -u
B=$1
PLAYER=$2
up() { cut -d' ' -f1 /proc/uptime; }
say() { echo "[imu $(up)s] $1"; echo "$1=$(up)" >> "$OUT/imu-timings"; }
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
: > "$OUT/imu-timings"
release=$(uname -r)
# The barometer's part left the stub with its chip: the stub again, with the IMU's address.
for adapter in /sys/bus/i2c/devices/i2c-*; do
  if grep -q "SMBus stub driver" "$adapter/name" 2>/dev/null; then
    [ -e "$adapter/${adapter##*-}-0076" ] && echo 0x76 > "$adapter/delete_device"
  fi
done
rmmod i2c_stub 2>/dev/null
insmod "/usr/lib/modules/$release/kernel/drivers/i2c/i2c-stub.ko" chip_addr=0x68 || { echo "no i2c-stub"; exit 2; }
bus=
for adapter in /sys/bus/i2c/devices/i2c-*; do
  grep -q "SMBus stub driver" "$adapter/name" 2>/dev/null && bus=${adapter##*-}
done
[ -n "$bus" ] || { echo "the stub's bus did not appear"; exit 2; }
# The chip id (0xd1), the accelerometer at ±8 g (0x41 = 0x08) and 100 Hz (0x40 = 0x28), the
# gyroscope at ±2000 °/s, 100 Hz; gravity on z until the gait begins.
i2cset -f -y "$bus" 0x68 0x00 0xd1 b || exit 2
i2cset -f -y "$bus" 0x68 0x40 0x28 b && i2cset -f -y "$bus" 0x68 0x41 0x08 b || exit 2
i2cset -f -y "$bus" 0x68 0x42 0x28 b && i2cset -f -y "$bus" 0x68 0x43 0x00 b || exit 2
i2cset -f -y "$bus" 0x68 0x12 0x00 0x00 0x00 0x00 0x00 0x10 i || exit 2
echo bmi160 0x68 > "/sys/bus/i2c/devices/i2c-$bus/new_device"
device=
i=0
while [ -z "$device" ]; do
  for d in /sys/bus/iio/devices/iio:device*; do
    [ "$(cat "$d/name" 2>/dev/null)" = bmi160 ] && device=$d
  done
  i=$((i+1)); [ $i -gt 600 ] && { echo "the bmi160 driver did not bind in 60 s"; dmesg | tail -20; exit 3; }
  [ -n "$device" ] || sleep 0.1
done
say bound
{ echo "$device"; ls "$device" "$device/scan_elements"; cat "$device/in_accel_scale" "$device/in_accel_z_raw"; } \
  > "$OUT/imu-device.txt" 2>&1
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config || exit 3

D=/tmp/wearbridge-imu
rm -rf "$D"; mkdir -p "$D/data"
config() {
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
device = "off"
$1
CONF
}
C="--config $D/wearbridge.toml"
start_daemon() {
  "$B" run $C > "$OUT/imu-daemon-$1.log" 2>&1 &
  PID=$!
  i=0
  until [ -S "$D/control.sock" ]; do
    i=$((i+1)); [ $i -gt 2400 ] && { echo "control socket never appeared"; cat "$OUT/imu-daemon-$1.log"; exit 4; }
    kill -0 $PID 2>/dev/null || { echo "daemon died"; cat "$OUT/imu-daemon-$1.log"; exit 4; }
    sleep 0.05
  done
}
stop_daemon() {
  kill -TERM $PID
  wait $PID
  echo "daemon_rc_$1=$?" >> "$OUT/imu-timings"
  rm -f "$D/control.sock"
}

config '[imu]
device = "bmi160"
placement = "hip"
rate = 100'
start_daemon on
i=0
until "$B" ctl status --json $C 2>/dev/null | grep -q '"state":"reading"'; do
  i=$((i+1)); [ $i -gt 240 ] && { echo "the IMU never read in 120 s"; "$B" ctl status $C; cat "$OUT/imu-daemon-on.log"; exit 5; }
  sleep 0.5
done
say reading
"$B" ctl status --json $C > "$OUT/imu-status-before.json"
cat /sys/bus/iio/devices/trigger*/name > "$OUT/imu-triggers.txt" 2>&1
cat "$device/trigger/current_trigger" > "$OUT/imu-current-trigger.txt"
"$B" ctl start --indoor $C > "$OUT/imu-start.txt" || { cat "$OUT/imu-start.txt"; exit 5; }
say started
cpu_before=$(cpu $PID)
played_from=$(up)
python3 "$PLAYER" play "$bus" 0x68 "$OUT/imu-steps.jsonl" || { echo "the player failed"; exit 6; }
played_to=$(up)
cpu_after=$(cpu $PID)
say played
sleep 3
"$B" ctl status --json $C > "$OUT/imu-status-session.json"
"$B" ctl status $C > "$OUT/imu-status-session.txt"
"$B" ctl end $C > "$OUT/imu-end.txt" || exit 7
echo "cpu_on_ticks=$((cpu_after - cpu_before)) seconds_on=$(echo "$played_to $played_from" | awk '{print $1 - $2}')" \
  >> "$OUT/imu-timings"
# The IMU removed (a HAT unplugged): its buffer's reads fail or stall, the daemon says so and looks
# again; added back, it reads again.
echo 0x68 > "/sys/bus/i2c/devices/i2c-$bus/delete_device"
say removed
sleep 8
"$B" ctl status --json $C > "$OUT/imu-status-removed.json" || exit 8
echo bmi160 0x68 > "/sys/bus/i2c/devices/i2c-$bus/new_device"
say added
i=0
until "$B" ctl status --json $C | grep -q '"state":"reading"'; do
  i=$((i+1)); [ $i -gt 120 ] && break
  sleep 1
done
say reading_again
"$B" ctl status --json $C > "$OUT/imu-status-again.json"
"$B" sessions --json $C > "$OUT/imu-sessions.json"
id=$(sed -n 's/.*"id" *: *"\([^"]*\)".*/\1/p' "$OUT/imu-sessions.json" | head -1)
"$B" show "$id" --json $C > "$OUT/imu-show.json"
"$B" show "$id" $C > "$OUT/imu-show.txt"
stop_daemon on
cp "$D/data/wearbridge.sqlite" "$OUT/imu-data.sqlite"
[ -f "$D/data/wearbridge.sqlite-wal" ] && cp "$D/data/wearbridge.sqlite-wal" "$OUT/imu-data.sqlite-wal"

# The same daemon with the IMU off and a session open, for a minute: the CPU the IMU costs, per
# second, a figure for docs/benchmarks.md (BENCH=1).
if [ "${BENCH:-0}" = 1 ]; then
  config '[imu]
device = "off"'
  start_daemon off
  "$B" ctl start $C > /dev/null || exit 9
  seconds=60
  cpu_before=$(cpu $PID)
  sleep "$seconds"
  cpu_after=$(cpu $PID)
  echo "cpu_off_ticks=$((cpu_after - cpu_before)) seconds_off=$seconds" >> "$OUT/imu-timings"
  "$B" ctl end $C > /dev/null
  stop_daemon off
fi
echo "clk_tck=$(getconf CLK_TCK)" >> "$OUT/imu-timings"
exit 0
