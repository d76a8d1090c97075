"""The test VM's cases, in one boot (Tests/vm/hostroot.py): Debian's kernel in qemu with the host's
root over 9p, a virtual world of Bluetooth devices on its /dev/vhci (Tests/ble/world.py), its I2C
stub and IIO drivers, and the daemon in it as on a Pi. In this order:

- the strap on the kernel's own Bluetooth path (no bluetoothd): it drops the link twice, cuts every
  7th payload short and loses skin contact; `scan` and `first-seen`;
- a barometer and an IMU through the kernel's drivers on i2c-stub, each written while the daemon
  reads it, removed and added back;
- beside bluetoothd and its other users: a desktop's discovery, another program connecting the
  strap first or holding its notifications, the kernel's path told busy, a footpod and a treadmill,
  a strap that demands bonding;
- cues in Bluetooth headphones: btvirt's BR/EDR controllers, bluez-alsa the source, Bumble's A2DP
  sink the headphones;
- footpods and treadmills beside bluetoothd, an indoor session and a tunnel through a real gpsd.

Each case leaves its files in /var/tmp/ble-vm/out/CASE; a case's checks (Tests/vm/checks) read them
and print its figures."""
import json
import os
import subprocess
import sys

import pytest

import figures
import hostroot
from harness import BIN, DATA, ROOT

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.environ.get("BLE_VM_WORK", "/var/tmp/ble-vm")
# Figures for docs/benchmarks.md that add minutes of steady running: with WEARBRIDGE_BENCH=1.
BENCH = os.environ.get("WEARBRIDGE_BENCH", "0") == "1"


@pytest.fixture(scope="module")
def guest():
    """One boot for every case of this file; powered off after the last."""
    os.makedirs(WORK, exist_ok=True)
    vm = hostroot.Guest(WORK)
    try:
        vm.boot()
        vm.wearbridge = vm.copy(os.path.join(BIN, "wearbridge"))
        yield vm
    finally:
        vm.power_off()
        # How many times qemu was started for the whole phase (a boot that died early counts).
        figures.record("Tests/vm/test_vm.py", {"boots": vm.boots, "requests": vm.requests})
        print(f"the test VM: {vm.boots} boot(s), {vm.requests} requests")


def checks(name, *args):
    """A case's checks (Tests/vm/checks/NAME.py) over what it left; their lines, which hold its figures."""
    result = subprocess.run([sys.executable, os.path.join(HERE, "checks", f"{name}.py"), *args], capture_output=True,
                            text=True, timeout=300, cwd=os.path.join(HERE, "checks"))
    print(result.stdout + result.stderr)
    assert result.returncode == 0, f"the {name} checks failed:\n{result.stdout[-4000:]}{result.stderr[-2000:]}"
    return [line for line in result.stdout.splitlines() if line.strip()]


def case(guest, name, setup, command, timeout):
    """A case run in the guest: its setup (the world, bluetoothd), then its script, with OUT its folder."""
    out = guest.folder(name)
    guest.run(f"{setup}\n{command}", timeout=timeout, case=name)
    return out


def test_strap_on_the_kernels_path(guest):
    """The daemon as the central against a strap that drops the link twice (out of range 15 s each
    time), cuts every 7th payload short and loses skin contact: every recorded beat is one the strap
    sent, in order, none lost while streaming; malformed ones are events; then `scan` and `first-seen`."""
    script = guest.copy(os.path.join(HERE, "guest", "strap.sh"))
    world = ("--strap --strap-drop-after 20 --strap-away-for 15 --strap-drops 2 --strap-malformed-every 7 "
             "--strap-battery 80 --strap-contact-off 45 52")
    out = case(guest, "strap", f"bluetoothd_stop && world_start $OUT {world} || exit 2",
               f"sh {script} {guest.wearbridge} 95", timeout=600)
    return checks("strap", out, "--drops", "2")[-6:]


def test_barometer_through_the_kernels_driver(guest, tmp_path):
    """Debian's bmp280 driver on i2c-stub, a climb of 24 m written as raw pressures each second
    while gpsfake plays a run to a real gpsd: the daemon reads it through sysfs, logs every reading,
    and the session's gain and loss are the climb's within 3 m; removed and added back."""
    files = str(tmp_path)
    player = os.path.join(ROOT, "Tests", "iio", "bmp280.py")
    subprocess.run([sys.executable, player, "profile", f"{files}/profile.txt"], check=True)
    with open(f"{files}/calibration.txt", "w") as f:
        subprocess.run([sys.executable, player, "calibration"], stdout=f, check=True)
    # The first four minutes of a track session (a 10 s standing start, then running), for gpsfake.
    epochs = []
    with open(os.path.join(DATA, "gps", "track_3k_laps.nmea")) as f:
        for line in f:
            if line.startswith("$GPRMC"):
                epochs.append([])
            if epochs:
                epochs[-1].append(line)
    with open(f"{files}/run.nmea", "w") as f:
        for epoch in epochs[:280]:
            f.writelines(epoch)
    profile, _, nmea = (guest.copy(f"{files}/{name}") for name in ("profile.txt", "calibration.txt", "run.nmea"))
    script = guest.copy(os.path.join(HERE, "guest", "barometer.sh"))
    out = case(guest, "barometer", "world_stop || exit 2", f"sh {script} {guest.wearbridge} {nmea} {profile}",
               timeout=900)
    subprocess.run(["cp", f"{files}/profile.txt", f"{out}/barometer-profile.txt"], check=True)
    truth = subprocess.run([sys.executable, player, "truth"], capture_output=True, text=True, check=True).stdout
    return checks("barometer", out, truth.strip())[-3:]


def test_imu_buffered_through_the_kernels_driver(guest):
    """Debian's bmi160 driver on i2c-stub, read buffered by the daemon through an hrtimer trigger it
    makes in configfs while a gait of known steps is written into its data registers: its steps,
    cadence and stops; removed and added back."""
    player = guest.copy(os.path.join(ROOT, "Tests", "iio", "bmi160.py"))
    script = guest.copy(os.path.join(HERE, "guest", "imu.sh"))
    out = case(guest, "imu", f"world_stop || exit 2\nexport BENCH={1 if BENCH else 0}",
               f"sh {script} {guest.wearbridge} {player}", timeout=900)
    truth = subprocess.run([sys.executable, os.path.join(ROOT, "Tests", "iio", "bmi160.py"), "truth"],
                           capture_output=True, text=True, check=True).stdout
    return checks("imu", out, truth.strip())[-3:]


def test_beside_bluetoothd_and_its_other_users(guest):
    """bluetoothd up as on a Pi: a desktop's discovery during first-seen, another program connecting
    the strap first and disconnecting it, another program holding its notifications, the kernel's
    path told busy, a footpod and a treadmill beside the strap; the strap demands bonding throughout:
    bonded once, then never paired again."""
    script = guest.copy(os.path.join(HERE, "guest", "coexist.sh"))
    world = ("--strap --strap-battery 80 --strap-require-bond --strap-drop-after 20 --strap-away-for 3 "
             "--strap-drops 1 --footpod --treadmill --footpod-drop-after 15 --footpod-away-for 3 --footpod-drops 1")
    cases = "bonded desktop_discovery other_connects_first held kernel_held sensors pairings"
    out = case(guest, "coexist", f"bluetoothd_start $OUT/bluetoothd.log && world_start $OUT {world} || exit 2",
               f"sh {script} {guest.wearbridge} '{cases}'", timeout=900)
    return checks("coexist", os.path.dirname(out))[-8:]


def test_cues_in_bluetooth_headphones(guest):
    """btvirt's BR/EDR controllers with bluetoothd: the wearable's with bluez-alsa as the A2DP source,
    the headphones' with Bumble's A2DP sink, paired with bluetoothctl; the daemon's cue decoded at
    the far side; the headphones gone: the next cue dropped with one journal line."""
    script = guest.copy(os.path.join(HERE, "guest", "headphones.sh"))
    sink = guest.copy(os.path.join(ROOT, "Tests", "ble", "a2dp_sink.py"))
    venv = os.path.join(WORK, "venv")
    out = case(guest, "headphones", "bluetoothd_start $OUT/bluetoothd.log && world_start $OUT --strap || exit 2",
               f"sh {script} {guest.wearbridge} {venv}/bin/python {sink}", timeout=600)
    return checks("headphones", out)[-4:]


def test_footpod_and_treadmill(guest, tmp_path):
    """Beside bluetoothd: a footpod (7 % long, dropped, truncated payloads) and a treadmill beside the
    strap; `wearbridge sensor`, an indoor session equal to the treadmill's count, and a tunnel
    through a real gpsd carried by the footpod."""
    files = str(tmp_path)
    with open(f"{files}/route.log", "w") as log:
        subprocess.run([sys.executable, os.path.join(ROOT, "Tests", "ble", "tunnel_route.py"), f"{files}/tunnel.nmea",
                        f"{files}/route.json", "--preroll", "20"], stdout=log, check=True)
    nmea, route = guest.copy(f"{files}/tunnel.nmea"), guest.copy(f"{files}/route.json")
    script = guest.copy(os.path.join(HERE, "guest", "sensors.sh"))
    # bluetoothd connects sooner than the kernel's path: the field tools' phase sees more of the
    # footpod's drops, and one more keeps one for the daemon's phase.
    world = ("--strap --footpod --treadmill --duration 200 --footpod-drop-after 20 --footpod-away-for 8 "
             f"--footpod-drops 4 --footpod-malformed-every 9 --footpod-drift 0.02 --route {route} "
             "--route-go /mnt/out/sensors/route-go")
    out = case(guest, "sensors", f"bluetoothd_start $OUT/bluetoothd.log && world_start $OUT {world} || exit 2\n"
               f"export BENCH={1 if BENCH else 0}",
               f"sh {script} {guest.wearbridge} 60 {nmea}", timeout=1200)
    subprocess.run(["cp", f"{files}/route.json", f"{out}/route.json"], check=True)
    return checks("sensors", out)[-8:]


@pytest.mark.bench
def test_the_footprint_of_both_paths(guest):
    """A figure, not a check: the same 40 s of streaming through bluetoothd and through the kernel's
    own path, the daemon's CPU and memory for each, and the kernel's raw scan beside a desktop's
    discovery, with a strap that does not demand bonding (the kernel's path cannot bond)."""
    script = guest.copy(os.path.join(HERE, "guest", "coexist.sh"))
    world = "--strap --strap-battery 80 --footpod --treadmill"
    out = case(guest, "footprint", f"bluetoothd_start $OUT/bluetoothd.log && world_start $OUT {world} || exit 2",
               f"sh {script} {guest.wearbridge} 'sensors footprint kernel_under_discovery'", timeout=1200)
    return checks("coexist", os.path.dirname(out))[-4:]
