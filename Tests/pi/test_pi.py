"""The wearable as a user installs it, end to end: the Debian packages installed by apt in a fresh
Debian 12 (mmdebstrap), set up as the README says, booted with systemd under qemu; gpsd reads a
USB serial GPS that udev named, the strap is on the kernel's Bluetooth stack (Tests/ble/world.py's
virtual controller), cues go to an emulated sound card through ALSA with no sound server and are
heard in a WAV file on the host, the phone (the package's wearbridge-phone) is on the host across
qemu's network. The power is cut mid-session and the wearable booted again.

With --arch arm64 it is a Raspberry Pi (Tests/pi/vm.py): the arm64 packages in Debian 13 with
its own arm64 kernel, the GPS on the Pi's UART, the strap's controller on a serial line as a Pi's
own, the phone the arm64 package's too, run on the host through qemu-user (--ld-prefix: an arm64
root with its C library).

The Pi is a phase of the suite (`-m pi`); the amd64 wearable is an extra (`-m extra`), since the Pi
covers what it proves but the architecture. Returns the figures (boot to READY, RSS, exposure
scores, the whole test's time), kept beside the test's files in WORK/run/figures.json.
WEARABLE_CENSUS=1: the daemon under strace, no filter, its system calls counted (systemd/README.md)."""
import contextlib
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import traceback

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import builds  # noqa: E402
import bumble  # noqa: E402
import pi_checks as checks  # noqa: E402
import debian_kernel  # noqa: E402
import image  # noqa: E402
import lifecycle  # noqa: E402
import qemu  # noqa: E402
from harness import DATA, ENV, free_port, rows, spawn, stop_all, wait_for  # noqa: E402
from serial_gps import SerialGPS  # noqa: E402
from vm import Wearable  # noqa: E402
from wav_capture import WavCapture  # noqa: E402

# A bike ride (the distance core's benchmark recording at 6-7 m/s): the rider waits at epoch 413,
# just after a corner, and sets off as the phone starts the session, so that the session begins
# on a straight (a corner in its first seconds delays the departure past the auto-pause's dwell)
# and the 40 s stop (epochs 466-505) comes 52 s later, however long the boot took; the first
# kilometre comes after the power cut.
RECORDING = os.path.join(DATA, "gps", "commute_ride.nmea")
START_EPOCH = 413
WORLD_ARGS = "--strap --strap-battery 80"


class Report:
    """Timings and figures, printed at the end and kept as JSON beside the test's files."""

    def __init__(self, path):
        self.path = path
        self.t0 = time.time()
        self.figures = {}

    def mark(self, name):
        self.figures[f"t_{name}_s"] = round(time.time() - self.t0, 1)
        print(f"[wearable +{time.time() - self.t0:6.1f}s] {name}", flush=True)

    def set(self, name, value):
        self.figures[name] = value

    def save(self):
        with open(self.path, "w") as f:
            json.dump(self.figures, f, indent=1, sort_keys=True)


class Phone:
    """The package's wearbridge-phone on the host, where the wearable's qemu network puts 10.0.2.2."""

    def __init__(self, deb, work):
        self.dir = f"{work}/phone"
        os.makedirs(self.dir)
        subprocess.run(["dpkg-deb", "-x", deb, f"{self.dir}/package"], check=True)
        self.binary = f"{self.dir}/package/usr/bin/wearbridge-phone"
        self.port = free_port()
        self.config = f"{self.dir}/phone.toml"
        self.configure("00" * 32)
        out = self.cli("identity").stdout
        self.fingerprint = out.split("fingerprint ")[1].split()[0]

    def configure(self, wearable_fingerprint):
        with open(self.config, "w") as f:
            f.write(f'[server]\nlisten = "127.0.0.1"\nport = {self.port}\n[storage]\ndirectory = "{self.dir}/data"\n'
                    f'[commands]\nretry_every = 2\ndeadline = 90\n'
                    f'[[wearable]]\nname = "vest"\nfingerprint = "{wearable_fingerprint}"\n')

    def cli(self, *args, timeout=120, check=True):
        result = subprocess.run([self.binary, *args, "--config", self.config], capture_output=True, text=True,
                                env=ENV, timeout=timeout)
        if check and result.returncode != 0:
            raise AssertionError(f"wearbridge-phone {' '.join(args)}: exit {result.returncode}: "
                                 f"{result.stdout}{result.stderr}")
        return result

    def start(self):
        self.process = spawn([self.binary, "run", "--config", self.config], f"{self.dir}/phone.log")

    def status(self):
        lines = self.cli("status", "--json").stdout.splitlines()
        return json.loads(lines[0]) if lines else {}

    def inbox(self):
        return rows(f"{self.dir}/data/wearbridge-phone.sqlite",
                    "SELECT seq, class, kind FROM inbox WHERE wearable = 'vest' ORDER BY seq")


# Each look into the guest runs a command there under software emulation: looked at back to back,
# they starve the cue player (its card then loops stale sound, a stutter the test would hear).
GUEST_POLL = 2.0


def boot(wearable, wav, report, name):
    """Boots until the probe answers; a guest kernel that dies or hangs in early boot is booted again
    (Tests/vm/qemu.py says why; twice at most, and said so)."""
    for attempt in range(qemu.BOOTS):
        wearable.boot(wav)
        boot_id = wearable.wait_for_probe()
        if boot_id:
            report.mark(f"{name}_probe")
            return boot_id
        print(f"  {qemu.early_boot_failure(wearable.console_text()) or 'the guest died'} before systemd "
              f"(attempt {attempt + 1}); booting again")
        wearable.stop()
    raise AssertionError("the wearable did not boot")


def unit_facts(wearable):
    out = wearable.run("systemctl show wearbridge.service -p ActiveState -p SubState -p NRestarts -p MainPID "
                       "-p ActiveEnterTimestampMonotonic -p ExecMainStartTimestampMonotonic -p WatchdogUSec "
                       "-p WatchdogTimestampMonotonic -p StatusText")
    return dict(line.split("=", 1) for line in out.strip().splitlines())


def wait_ready(wearable, report, name):
    facts = wait_for(lambda: (f := unit_facts(wearable))["ActiveState"] == "active" and f, 120,
                     f"wearbridge.service active ({name})")
    report.set(f"{name}_boot_to_ready_s", round(int(facts["ActiveEnterTimestampMonotonic"]) / 1e6, 1))
    report.set(f"{name}_start_to_ready_s", round((int(facts["ActiveEnterTimestampMonotonic"])
                                                  - int(facts["ExecMainStartTimestampMonotonic"])) / 1e6, 2))
    report.mark(f"{name}_ready")
    return facts


def ctl_status(wearable):
    """`wearbridge ctl status --json`'s figures, as root asks the control socket."""
    reply = json.loads(wearable.run("wearbridge ctl status --json"))
    assert reply.get("ok"), reply
    return reply["status"]


def bad_control_request(wearable):
    """A local user's garbage on the control socket (perl-base is in every Debian): an error reply
    naming what was wrong, a warning in the journal (journal_priorities), and the next request answered."""
    out = wearable.run("""perl -MIO::Socket::UNIX <<'PERL'
my $s = IO::Socket::UNIX->new(Peer => "/run/wearbridge/control.sock") or die "connect: $!";
print $s "\\x00garbage{\\n";
print scalar <$s>;
PERL""")
    reply = json.loads(out.strip().splitlines()[-1])
    assert reply.get("ok") is False and reply.get("error"), f"garbage on the control socket: {reply}"
    assert ctl_status(wearable).get("session_id"), "ctl status after the garbage"
    return reply["error"]


def session_events(wearable, session):
    return json.loads(wearable.run(f"wearbridge show {session} --json")).get("events", [])


def kinds(wearable, session):
    return {event["kind"] for event in session_events(wearable, session)}


def daemon_memory(wearable):
    """The daemon's resident memory (now and its peak) and its service's cgroup (aplay included)."""
    out = wearable.run("pid=$(systemctl show -p MainPID --value wearbridge.service); "
                       "grep -E '^(VmRSS|VmHWM):' /proc/$pid/status; "
                       "echo cgroup_peak_kB $(( $(cat /sys/fs/cgroup/system.slice/wearbridge.service/memory.peak) / 1024 ))")
    figures = {}
    for line in out.splitlines():
        name, value = line.replace(":", "").split()[:2]
        figures[name] = int(value)
    return {"rss_kB": figures["VmRSS"], "peak_rss_kB": figures["VmHWM"], "cgroup_peak_kB": figures["cgroup_peak_kB"]}


def delivered(wearable, phone):
    """Every critical and notice message in the wearable's outbox acknowledged, and at the phone."""
    outbox = [json.loads(line) for line in wearable.run("wearbridge outbox --json").splitlines() if line.startswith("{")]
    wanted = [r for r in outbox if r["class"] != "snapshot"]
    return wanted and all(r["state"] == "delivered" for r in wanted) and len(phone.inbox()) == len(wanted)


def exposure(text, unit):
    match = re.search(rf"Overall exposure level for {re.escape(unit)}: ([0-9.]+)", text)
    assert match, f"no exposure level for {unit}: {text[-300:]}"
    return float(match.group(1))


def guest_facts(wearable, work):
    """What the guest says of itself at the end: the unit under the watchdog, journald's view of the
    daemon, udev's of the controller and the receiver, the exposure scores (kept in work/guest/)."""
    directory = f"{work}/guest"
    os.makedirs(directory, exist_ok=True)
    facts = {"unit": unit_facts(wearable)}
    commands = {
        "journal.json": "journalctl -u wearbridge.service -o json --no-pager",
        "udev-hci0.txt": "udevadm test /sys/class/bluetooth/hci0 2>&1",
        "udev-gps.txt": "udevadm test $(udevadm info -q path -n /dev/gps0) 2>&1",
        "gps-links.txt": "udevadm info -q symlink -n /dev/gps0; readlink -f /dev/gps0",
        # btmgmt prints nothing without a terminal; hciconfig (bluez, deprecated but there) does.
        "hciconfig.txt": "hciconfig hci0 2>&1",
        "power-unit.txt": "systemctl --no-pager status wearbridge-bluetooth-power@hci0.service 2>&1",
        "security-wearbridge.txt": "systemd-analyze security --no-pager wearbridge.service 2>&1",
        "security-wearbridge-phone.txt": "systemd-analyze security --no-pager wearbridge-phone.service 2>&1",
        "gpsdctl.txt": "systemctl --no-pager status 'gpsdctl@*' 2>&1 | head -20",
    }
    for name, command in commands.items():
        output = wearable.run(command, timeout=120, check=False)
        with open(f"{directory}/{name}", "w") as f:
            f.write(output)
        facts[name] = output
    facts["exposure"] = {unit: exposure(facts[f"security-{unit}.txt"], f"{unit}.service")
                         for unit in ("wearbridge", "wearbridge-phone")}
    return facts


def imu_check(wearable, report):
    """The IMU as a user of the package meets it: an accelerometer bound while the service runs
    (guest/imu.sh: Debian's bmi160 driver on i2c-stub), udev's rule giving its node to the
    wearbridge group and starting wearbridge-iio@, which grants the buffer's attributes and makes
    the hrtimer trigger, and the sandboxed daemon, as the wearbridge user, reading it buffered:
    its steps counted from a gait of known steps (Tests/iio/bmi160.py) within 5 %."""
    before = ctl_status(wearable).get("imu") or {}
    assert before.get("state") == "absent", f"the IMU before one is bound: {before}"
    bus = wearable.run("/usr/local/lib/wearable-imu.sh bind").strip().splitlines()[-1]
    report.mark("imu_bound")
    reading = wait_for(lambda: (s := ctl_status(wearable).get("imu") or {}).get("state") == "reading" and s, 60,
                       "the service reading the IMU (it looks every 10 s)", every=GUEST_POLL)
    report.mark("imu_reading")
    name = os.path.basename(reading["device"])
    facts = {
        "node": wearable.run(f"stat -c '%G %a' /dev/{name}").strip(),
        "unit": wearable.run(f"systemctl show -p Result -p ExecMainStatus --value wearbridge-iio@{name}.service "
                             "| tr '\\n' ' '").strip(),
        "unit_says": wearable.run(f"journalctl -b -o cat --no-pager -u wearbridge-iio@{name}.service "
                                  "| grep wearbridge-iio-setup || true").strip(),
        "enable": wearable.run(f"stat -c '%G %a' /sys/bus/iio/devices/{name}/buffer*/enable | sort -u").strip(),
        "trigger": reading.get("trigger"),
    }
    assert facts["node"] == "wearbridge 660", f"/dev/{name}: {facts['node']}"
    assert facts["unit"].split()[:2] == ["success", "0"], f"wearbridge-iio@{name}: {facts['unit']}"
    assert facts["enable"] == "wearbridge 664", f"the buffer's enable: {facts['enable']}"
    assert facts["trigger"] == "wearbridge", f"the trigger: {facts['trigger']}"
    log = "/var/tmp/imu-steps.jsonl"
    wearable.run(f"systemd-run --unit=imu-gait /usr/local/lib/wearable-imu.sh play {bus} {log}")
    wait_for(lambda: "ended_uptime" in wearable.run(f"tail -1 {log} 2>/dev/null || true"), 300, "the gait played",
             every=5)
    time.sleep(3)
    played = [json.loads(line) for line in wearable.run(f"cat {log}").splitlines() if line.startswith("{")]
    status = ctl_status(wearable)["imu"]
    truth = played[0]["steps"]
    facts.update(steps=status.get("steps"), truth=truth, measured_rate=status.get("measured_rate_hz"),
                 late_writes=played[-1]["late_writes"], written=played[-1]["written"])
    error = abs(status.get("steps", 0) - truth) / truth
    assert error <= 0.05, f"the service counted {status.get('steps')} steps of {truth}: {status}"
    report.mark("imu_played")
    print(f"  the IMU through the package: {status.get('steps')} steps of {truth}, "
          f"{status.get('measured_rate_hz')} Hz, trigger {facts['trigger']}; {facts['unit_says']}")
    return facts


def check_everything(work, disk, session, gps, captures, phone, facts, report):
    """Everything the wearable is held to, once it is off (Tests/pi/pi_checks.py)."""
    path, _ = checks.extract(disk, f"{work}/final", replay_journal=False)
    result = {"integrity_check": checks.integrity(path)}
    assert result["integrity_check"] == "ok", f"PRAGMA integrity_check at the end: {result['integrity_check']}"
    result["recorded"] = checks.recorded_once(path, gps, f"{work}/out/sent.jsonl")
    assert result["recorded"]["session"][0] == session
    result["inbox_equals_outbox"] = checks.inbox_equals_outbox(path, phone)
    result["cues"] = checks.cues_heard(path, captures, facts["journal.json"])
    result["journal"] = checks.journal_priorities(facts["journal.json"])
    result["clean_stop"] = checks.clean_stop(disk, work)
    unit = facts["unit"]
    assert unit["ActiveState"] == "active" and unit["NRestarts"] == "0", f"the unit: {unit}"
    assert unit["WatchdogUSec"] in ("30s", "30000000"), f"watchdog: {unit['WatchdogUSec']}"
    assert "70-wearbridge-bluetooth.rules" in facts["udev-hci0.txt"] and \
        "wearbridge-bluetooth-power@hci0.service" in facts["udev-hci0.txt"], \
        "udevadm test: the project's rule does not match hci0"
    assert "status=0/SUCCESS" in facts["power-unit.txt"], f"the controller's power unit: {facts['power-unit.txt']}"
    assert "61-gps.rules" in facts["udev-gps.txt"] and "gpsdctl@" in facts["udev-gps.txt"], \
        "udevadm test: docs/hardware.md's GPS rule does not match the receiver"
    assert "UP RUNNING" in facts["hciconfig.txt"], f"hci0 not powered: {facts['hciconfig.txt']}"
    result["udev"] = ("70-wearbridge-bluetooth.rules matches hci0, wearbridge-bluetooth-power@hci0 powered it (no "
                      "bluetoothd); 61-gps.rules matches the receiver")
    return result


def census(wearable, report):
    """The daemon's (and its cue player's) system calls, as strace counted them through the run, and
    which of them the shipped unit's SystemCallFilter= leaves out (the guest's systemd resolves it)."""
    wearable.run("systemctl stop wearbridge.service", timeout=60)
    table = wearable.run("cat /var/lib/wearbridge/census.txt")
    calls = sorted({line.split()[-1] for line in table.splitlines()[2:]
                    if line.split() and line.split()[-1].isidentifier() and line.split()[-1] != "total"})
    shipped = wearable.run("systemctl show -p SystemCallFilter --value wearbridge.service; "
                           "grep -h '^SystemCallFilter=' /lib/systemd/system/wearbridge.service", check=False)
    # The unit as shipped, resolved by the guest's own systemd in a transient unit of the same filter.
    lines = [line.split("=", 1)[1] for line in shipped.splitlines() if line.startswith("SystemCallFilter=")]
    properties = " ".join(f"-p 'SystemCallFilter={line}'" for line in lines)
    resolved = wearable.run(f"systemd-run --unit=census-filter --remain-after-exit {properties} "
                            "/bin/true >/dev/null 2>&1; systemctl show -p SystemCallFilter --value census-filter.service",
                            check=False).split()
    allowed = set(resolved)
    outside = [call for call in calls if call not in allowed]
    print(table)
    print(f"census: {len(calls)} system calls: {' '.join(calls)}")
    print(f"outside the shipped filter (EPERM): {' '.join(outside) or 'none'}")
    report.set("census", {"calls": calls, "outside_filter": outside})
    return calls


# What the VMs need of Debian beyond the suite's own packages.
PACKAGES = {"arm64": ["mmdebstrap", "arch-test", "qemu-system-arm", "e2fsprogs", "python3-venv"],
            "amd64": ["mmdebstrap", "qemu-system-x86", "e2fsprogs", "busybox-static", "cpio", "kmod", "xz-utils",
                      "python3-venv"]}
PARTS = os.environ.get("BLE_VM_WORK", "/var/tmp/ble-vm")


@pytest.mark.timeout(3600)
def test_the_pi_as_its_user_runs_it():
    """The arm64 packages (the deployment build by Debian's Swift, lintian clean) installed by apt
    in a fresh Debian 13 arm64 booted with its own kernel under qemu-system-aarch64. Its base (and
    the i2c-stub module for its kernel) is made while the packages are built."""
    work_root = "/var/tmp/pi-vm"
    os.makedirs(work_root, exist_ok=True)
    subprocess.run([os.path.join(ROOT, "scripts", "build", "apt-need.sh"), "--no-install-recommends",
                    *PACKAGES["arm64"]], check=True)
    prepared = {}

    def prepare():
        try:
            made = image.base(f"{work_root}/apt-cache", f"{work_root}/base.log", run=builds.run)
            prepared["stub"] = image.i2c_stub(made, f"{work_root}/apt-cache", f"{work_root}/i2c-stub.log",
                                              run=builds.run)
            prepared["base"] = made
        except Exception as error:  # noqa: BLE001 - raised below, in the test's thread
            prepared["error"] = error
    thread = threading.Thread(target=prepare)
    thread.start()
    try:
        sysroot = builds.arm64_toolchain()
        debs = builds.arm64_packages()
    finally:
        thread.join()
    if "error" in prepared:
        raise prepared["error"]
    return wearable(debs, work_root, arch="arm64", ld_prefix=sysroot, base=prepared["base"], stub=prepared["stub"])


@pytest.mark.extra
@pytest.mark.timeout(3600)
def test_the_amd64_wearable_as_its_user_runs_it():
    """The same with the amd64 packages in Debian 12 and a USB serial GPS."""
    return wearable(builds.amd64_packages(), "/var/tmp/wearable-vm", arch="amd64")


def wearable(debs, work_root, arch, ld_prefix=None, base=None, stub=None):
    """The whole story of one wearable as its user installs and runs it; its figures."""
    subprocess.run([os.path.join(ROOT, "scripts", "build", "apt-need.sh"), "--no-install-recommends",
                    *PACKAGES[arch]], check=True)
    census_on = os.environ.get("WEARABLE_CENSUS") == "1"
    arm64 = arch == "arm64"
    if arm64:
        assert ld_prefix and os.path.exists(f"{ld_prefix}/lib/ld-linux-aarch64.so.1"), \
            f"no arm64 C library in {ld_prefix} (scripts/build/arm64-toolchain.sh's sysroot)"
        ENV["QEMU_LD_PREFIX"] = ld_prefix
    work = f"{work_root}/run"
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(f"{work}/out")
    report = Report(f"{work}/figures.json")
    wearable = None
    gps = None
    captures = []
    succeeded = False
    os.makedirs(PARTS, exist_ok=True)
    kernel_dir = None if arm64 else debian_kernel.fetch(PARTS)
    venv = bumble.venv(PARTS)
    world = None
    try:
        phone = Phone(debs[1], work)
        root = f"{work}/rootfs"
        image.rootfs(root, debs, f"{work_root}/apt-cache", f"{work}/mmdebstrap.log", arch=arch, made=base, stub=stub)
        report.mark("rootfs")
        report.set("installed", image.installed_state(root))
        wearable_fingerprint = image.set_up_as_a_user(root, phone.fingerprint, phone.port, arch=arch)
        image.set_up_the_test(root, kernel_dir, venv, work, WORLD_ARGS, census=census_on, arch=arch)
        disk = f"{work}/disk.img"
        image.disk(root, disk)
        if arm64:
            # The image's own kernel and initramfs (Debian's, made by its maintainer scripts).
            kernel = shutil.copy(max(glob.glob(f"{root}/boot/vmlinuz-*")), f"{work}/vmlinuz")
            initramfs = shutil.copy(max(glob.glob(f"{root}/boot/initrd.img-*")), f"{work}/initrd.img")
        else:
            initramfs = debian_kernel.initramfs(kernel_dir, ["virtio_blk", "ext4"],
                                                f"{image.HERE}/initramfs-init.sh", f"{work}/initramfs.gz")
            kernel = debian_kernel.vmlinuz(kernel_dir)
        report.mark("disk")
        phone.configure(wearable_fingerprint)
        phone.start()

        # The package's life after installation, in the root file system the disk was made from,
        # while the wearable boots.
        seen = {}

        def packaging():
            try:
                seen.update(lifecycle.check(root, debs, work))
            except Exception as error:  # reported and failed below
                seen["error"] = f"{error!r}\n{traceback.format_exc()}"
        life = threading.Thread(target=packaging)
        life.start()

        gps = SerialGPS(f"{work}/gps.sock", RECORDING, START_EPOCH)
        gps.start()
        wearable = Wearable(work, disk, kernel, initramfs, f"{work}/out", f"{work}/gps.sock", arch=arch,
                            bluetooth_socket=f"{work}/bluetooth.sock")

        def strap_world():
            """arm64: the strap's world on the host, its controller at the far end of the Pi's
            Bluetooth line, started afresh before each boot as the guest's own unit is on amd64."""
            nonlocal world
            if not arm64:
                return
            if world is not None:
                world.kill()
                world.wait()
            with contextlib.suppress(FileNotFoundError):
                os.unlink(f"{work}/bluetooth.sock")
            world = spawn([f"{venv}/bin/python", os.path.join(ROOT, "Tests", "ble", "world.py"),
                           "--hci", f"unix-server:{work}/bluetooth.sock", "--sent-log", f"{work}/out/sent.jsonl",
                           *WORLD_ARGS.split()], f"{work}/out/world.log")
            wait_for(lambda: os.path.exists(f"{work}/bluetooth.sock"), 30, "the strap's world listening")

        # Boot 1: READY, the link, a session started by the phone, GPS and strap in, the stop.
        wav = WavCapture(f"{work}/boot-1.wav")
        wav.start()
        captures.append(wav)
        strap_world()
        boot(wearable, wav.path, report, "boot1")
        wait_ready(wearable, report, "boot1")
        wait_for(lambda: phone.status().get("link") == "live", 120, "the phone link live")
        report.mark("link_live")
        gps.go()
        assert "ACK" in phone.cli("start", "--wearable", "vest").stdout
        session = wait_for(lambda: ctl_status(wearable).get("session_id"), 30, "the session", every=GUEST_POLL)
        report.mark("session_started")
        status = wait_for(lambda: (s := ctl_status(wearable)).get("fixes_accepted", 0) > 0
                          and (s.get("heart_rate") or {}).get("beats", 0) > 0 and s, 90, "fixes and beats",
                          every=GUEST_POLL)
        report.mark("gps_and_strap")
        wait_for(lambda: "auto_resumed" in kinds(wearable, session), 240, "the stop: auto-paused, then resumed",
                 every=GUEST_POLL)
        report.mark("auto_resumed")
        if census_on:
            census(wearable, report)
        else:
            time.sleep(8)
            report.set("boot1_daemon", daemon_memory(wearable))
            # Power cut mid-session: qemu killed, the disk as the wearable left it.
            wearable.power_cut()
            report.mark("power_cut")
            report.set("after_power_cut", checks.power_cut_state(disk, work))
            report.mark("cut_disk_checked")

            # Boot 2: the session recovered as one, the first kilometre, ended by the phone.
            wav = WavCapture(f"{work}/boot-2.wav")
            wav.start()
            captures.append(wav)
            strap_world()
            boot(wearable, wav.path, report, "boot2")
            wait_ready(wearable, report, "boot2")
            assert ctl_status(wearable).get("session_id") == session, "the session did not come back"
            wait_for(lambda: "split" in kinds(wearable, session), 240, "the first split", every=GUEST_POLL)
            report.mark("split")
            wait_for(lambda: any(e["kind"] == "cue_spoken" and e["detail"].get("cue") == "split"
                                 for e in session_events(wearable, session)), 60, "the split's cue", every=GUEST_POLL)
            report.set("bad_control_request", bad_control_request(wearable))
            assert "ACK" in phone.cli("end", "--wearable", "vest").stdout
            report.mark("session_ended")
            wait_for(lambda: delivered(wearable, phone), 120, "every message at the phone", every=GUEST_POLL)
            report.mark("delivered")
            # The end's cue is spoken after the session closed; the journal says when it has played.
            wait_for(lambda: "cue=session_ended" in wearable.run(
                "journalctl -b -u wearbridge.service -o cat --no-pager | grep 'event=cue_spoken' || true"),
                60, "the end's cue", every=GUEST_POLL)
            report.mark("end_cue_spoken")
            report.set("boot2_daemon", daemon_memory(wearable))
            report.set("imu", imu_check(wearable, report))
            facts = guest_facts(wearable, work)
            report.set("exposure", facts["exposure"])
            report.set("power_off_s", wearable.power_off())
            report.set("boots", wearable.boots)
            report.mark("powered_off")
            gps.stop()
            report.set("gps_bytes_from_guest", gps.received)
            for capture in captures:
                capture.stop()
            final = check_everything(work, disk, session, gps, captures, phone, facts, report)
            report.set("checks", final)
            life.join()
            if "error" in seen:
                raise AssertionError(f"package lifecycle: {seen['error']}")
            report.set("lifecycle", seen)
            report.mark("done")
            succeeded = True
    except BaseException:
        if wearable is not None and wearable.alive():
            try:
                print(wearable.run("systemctl --no-pager status wearbridge gpsd virtual-strap bluetooth-uart 2>&1 | tail -40; "
                                   "journalctl --no-pager -b -n 60 -u wearbridge -u gpsd -u virtual-strap -u bluetooth-uart 2>&1",
                                   timeout=30, check=False))
            except AssertionError as error:
                print(f"  (no diagnostics from the guest: {error})")
        raise
    finally:
        if wearable is not None:
            wearable.stop()
        if gps is not None:
            gps.stop()
        for capture in captures:
            capture.stop()
        stop_all()
        report.save()
        print(json.dumps(report.figures, indent=1, sort_keys=True))
        with open("/proc/mounts") as mounts:
            # Never delete through a mount left behind (the chroot's /dev is the host's).
            busy = [line.split()[1] for line in mounts if line.split()[1].startswith(work + "/")]
        if busy:
            print(f"FAIL still mounted under {work}: {busy}", file=sys.stderr)
            if succeeded:
                raise AssertionError(f"still mounted under {work}: {busy}")
        if succeeded and not busy and os.environ.get("WEARABLE_KEEP") != "1":
            # Nothing left behind but the figures and the logs: the root file system, the 2 GB disk,
            # the WAVs and the data logs go (WEARABLE_KEEP=1 keeps them; a failure keeps them).
            for name in os.listdir(work):
                path = f"{work}/{name}"
                if name == "figures.json" or name.endswith(".log"):
                    continue
                if os.path.isdir(path) and not os.path.islink(path):
                    shutil.rmtree(path, ignore_errors=True)
                else:
                    os.unlink(path)
    return report.figures
