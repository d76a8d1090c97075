"""The virtual wearable's disk: a minimal Debian made by mmdebstrap (12 on amd64; 13 on arm64, the
Raspberry Pi's, as Raspberry Pi OS trixie is), wearbridge installed from its package by apt and its
own maintainer scripts, then set up the way the README tells a user to (one file edited, gpsd told
where the receiver is, the unit enabled), plus the test's own parts (the 9p shares, a probe, the
virtual strap, a network); an ext4 disk image of it. On amd64 the kernel and its modules are
Debian's (Tests/vm/debian_kernel.py), as is the small initramfs that mounts the disk; on arm64 the
image carries Debian's own arm64 kernel and initramfs, installed by apt (maintainer scripts run
through qemu-user)."""
import contextlib
import glob
import hashlib
import os
import re
import shutil
import subprocess
import tempfile

from debian_kernel import sh  # Tests/vm (on the path Tests/conftest.py sets)

HERE = os.path.dirname(os.path.abspath(__file__))
# What the wearable runs besides wearbridge: an init, udev, gpsd, the Bluetooth tools the udev rule
# uses, modprobe (the strap's controller module), strace for the system-call census; for the
# test's IMU (guest/imu.sh) i2c-tools and python3, which write its registers.
PACKAGES = ["systemd", "systemd-sysv", "udev", "kmod", "gpsd", "bluez", "rfkill", "strace", "i2c-tools", "python3"]
# The Pi's image also carries its kernel (and so its initramfs), as any installed Debian does.
ARM64_PACKAGES = ["linux-image-arm64"]
# What the packages depend on and recommend (debian/control, and the C libraries dpkg-shlibdeps
# names), in the base already: nothing is downloaded when the .debs go in, and the base can be made
# before they are built. A dependency the base lacks fails the test, naming it.
ARM64_DEPENDS = ["alsa-utils", "espeak-ng", "bluez", "gpsd", "rfkill", "debconf", "libc6", "libgcc-s1", "libstdc++6",
                 "libsqlite3-0", "libbluetooth3", "libsystemd0", "zlib1g", "adduser"]
SUITE = {"amd64": "bookworm", "arm64": "trixie"}
# qemu's usb-serial is an FTDI FT232 (0403:6001), a bridge gpsd's own udev rules leave alone: the
# one-line rule of docs/hardware.md (udev/README.md) names it /dev/gps0 and hands it to gpsd whenever
# it appears.
GPS_SERIAL = "WEARABLE-GPS"
GPS_RULE = ('SUBSYSTEM=="tty", ATTRS{idVendor}=="0403", ATTRS{idProduct}=="6001", SYMLINK+="gps0", '
            'TAG+="systemd", ENV{SYSTEMD_WANTS}="gpsdctl@%k.service"\n')
# A Pi's GPS HAT is on its own UART, the PL011 (ttyAMA0) once the serial console is off
# (docs/hardware.md): the same line, matched by the kernel's name for it.
UART_GPS_RULE = 'KERNEL=="ttyAMA0", SYMLINK+="gps0", TAG+="systemd", ENV{SYSTEMD_WANTS}="gpsdctl@%k.service"\n'

STRAP = "F1:F1:F1:F1:F1:F1"


@contextlib.contextmanager
def mounted(root):
    """/proc, /sys and /dev in the chroot while maintainer scripts or our programs run there."""
    done = []
    try:
        for source, target, options in (("proc", "proc", ["-t", "proc"]), ("sysfs", "sys", ["-t", "sysfs"]),
                                        ("/dev", "dev", ["--bind"])):
            sh(["mount", *options, source, f"{root}/{target}"])
            done.append(f"{root}/{target}")
        yield
    finally:
        for path in reversed(done):
            sh(["umount", "-l", path], check=False)


def remove(path):
    """A tree removed, never through a mount left in it (a chroot's /dev is the host's)."""
    with open("/proc/mounts") as mounts:
        busy = [line.split()[1] for line in mounts if line.split()[1].startswith(path.rstrip("/") + "/")]
    if busy:
        raise AssertionError(f"still mounted under {path}: {busy}; not removed")
    shutil.rmtree(path, ignore_errors=True)


def chroot(root, *args, check=True, env=None):
    environment = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "DEBIAN_FRONTEND": "noninteractive"}
    environment.update(env or {})
    return sh(["chroot", root, *args], check=check, env=environment)


def mmdebstrap_args(arch, packages, cache):
    return ["mmdebstrap", "--variant=minbase", f"--architectures={arch}", "--include=" + ",".join(packages),
            "--aptopt=Acquire::Check-Valid-Until \"false\"",
            "--hook-dir=/usr/share/mmdebstrap/hooks/file-mirror-automount",
            "--aptopt=Acquire::Languages \"none\"", "--skip=essential/unlink",
            "--setup-hook=mkdir -p \"$1\"/var/cache/apt/archives/",
            f"--setup-hook=sync-in {cache} /var/cache/apt/archives/",
            f"--customize-hook=sync-out /var/cache/apt/archives {cache}"]


# The recipe of the arm64 base and of the module built for its kernel: a change here makes both anew.
BASE_RECIPE = 2


def plain(command, timeout, **kwargs):
    return subprocess.run(command, timeout=timeout, text=True, **kwargs)


def base(cache, log, run=plain):
    """The Pi's base (arm64): Debian 13 minbase with PACKAGES, its kernel and what the packages
    depend on, made by mmdebstrap with every maintainer script run through qemu-user (about 10
    minutes of one core), and kept as a tarball keyed by its inputs (the packages, the suite, this
    recipe) beside the download cache, so that it is made once per machine and input, and can be
    made while the packages are built. `run` runs the commands (Tests/rigs/builds.py's: at a low
    priority, in the builds' environment)."""
    os.makedirs(cache, exist_ok=True)
    packages = sorted(set(PACKAGES + ARM64_PACKAGES + ARM64_DEPENDS))
    key = hashlib.sha256(" ".join(packages + [SUITE["arm64"], "arm64", str(BASE_RECIPE)]).encode()).hexdigest()[:12]
    # Beside the download cache, not in it (the cache is synced into the root being made).
    bases = os.path.join(os.path.dirname(os.path.abspath(cache)), "base")
    os.makedirs(bases, exist_ok=True)
    made = f"{bases}/arm64-{key}.tar"
    if not os.path.exists(made):
        for old in glob.glob(f"{bases}/arm64-*"):
            shutil.rmtree(old) if os.path.isdir(old) else os.unlink(old)
        with open(log, "w") as f:
            result = run(mmdebstrap_args("arm64", packages, cache) + ["--format=tar", SUITE["arm64"], made + ".part"],
                         3600, stdout=f, stderr=subprocess.STDOUT)
        assert result.returncode == 0, f"mmdebstrap of the Pi's base failed (exit {result.returncode}); its log: {log}"
        os.rename(made + ".part", made)
    return made


def i2c_stub(made, cache, log, run=plain):
    """The kernel's i2c-stub built for the base's own kernel, which Debian's arm64 configuration
    leaves out (amd64's has it): the IMU under the package's udev rule and unit stands on it as on
    amd64. The source is the kernel's own (Debian's linux-source of the same series, by name), built
    out of tree against the kernel's headers in a chroot of the base (every tool through qemu-user,
    a few minutes once), kept beside the base, keyed by the kernel's version."""
    listing = sh(["tar", "-tf", made, "--wildcards", "./usr/lib/modules/*/modules.order"]).stdout.split()
    version = listing[0].split("/")[4]
    stub = os.path.join(os.path.dirname(made), f"i2c-stub-{version}.ko")
    if os.path.exists(stub):
        return stub, version
    series = ".".join(version.split(".")[:2])
    work = tempfile.mkdtemp(prefix="pi-i2c-stub.", dir=os.path.dirname(made))
    try:
        root = os.path.join(work, "root")
        os.makedirs(root)
        sh(["tar", "-C", root, "--numeric-owner", "-xpf", made])
        os.makedirs(f"{root}/var/cache/apt/archives/partial", exist_ok=True)
        sh(["cp", "-a", f"{cache}/.", f"{root}/var/cache/apt/archives/"], check=False)
        shutil.copy("/etc/resolv.conf", f"{root}/etc/resolv.conf")
        with mounted(root), open(log, "a") as f:
            for step in (["apt-get", "update", "-qq"],
                         ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "make", "xz-utils",
                          f"linux-headers-{version}"],
                         ["apt-get", "download", f"linux-source-{series}"]):
                result = chroot(root, *step, check=False)
                f.write(" ".join(step) + "\n" + result.stdout + result.stderr)
                assert result.returncode == 0, f"i2c-stub's build chroot: {' '.join(step)}: {result.stderr[-1500:]}"
        source = glob.glob(f"{root}/linux-source-{series}_*.deb")
        assert source, f"no linux-source-{series} downloaded"
        unpacked = os.path.join(work, "source")
        sh(["dpkg-deb", "-x", source[0], unpacked])
        tarball = glob.glob(f"{unpacked}/usr/src/linux-source-{series}.tar.xz")[0]
        build = f"{root}/tmp/i2c-stub"
        os.makedirs(build)
        with open(f"{build}/i2c-stub.c", "wb") as out:
            subprocess.run(["tar", "-xJOf", tarball, "--wildcards", "--occurrence=1", "*/drivers/i2c/i2c-stub.c"],
                           stdout=out, check=True)
        with open(f"{build}/Kbuild", "w") as f:
            f.write("obj-m := i2c-stub.o\n")
        with mounted(root), open(log, "a") as f:
            result = run(["chroot", root, "make", "-C", f"/usr/lib/modules/{version}/build", "M=/tmp/i2c-stub",
                          "modules"], 1800, capture_output=True)
            f.write(result.stdout + result.stderr)
            assert result.returncode == 0, f"i2c-stub's build: {result.stdout[-1500:]}{result.stderr[-1500:]}"
        shutil.copy(f"{build}/i2c-stub.ko", stub + ".part")
        os.rename(stub + ".part", stub)
        return stub, version
    finally:
        remove(work)


def rootfs(directory, debs, cache, log, arch="amd64", made=None, stub=None):
    """The wearable's root file system: Debian minbase and PACKAGES with the .debs installed by apt
    (their maintainer scripts run as on any machine). Downloads are kept in `cache` for the next
    run. On amd64 mmdebstrap makes it at once; on arm64 it is the base (`made`, base()) unpacked,
    the .debs installed on it by apt in the chroot, as a user installs them, and the i2c-stub module
    built for its kernel (`stub`) put where modprobe finds it."""
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(cache, exist_ok=True)
    if arch == "amd64":
        args = mmdebstrap_args(arch, PACKAGES, cache) + [f"--include={os.path.abspath(deb)}" for deb in debs]
        args += [SUITE[arch], directory]
        with open(log, "w") as f:
            subprocess.run(args, stdout=f, stderr=subprocess.STDOUT, check=True)
        return
    os.makedirs(directory)
    sh(["tar", "-C", directory, "--numeric-owner", "-xpf", made])
    missing = sorted(set(depends_of(debs)) - set(PACKAGES + ARM64_PACKAGES + ARM64_DEPENDS))
    assert not missing, f"the packages depend on {missing}, which the base lacks (image.py's ARM64_DEPENDS)"
    os.makedirs(f"{directory}/var/cache/wearable-debs", exist_ok=True)
    inside = [shutil.copy(deb, f"{directory}/var/cache/wearable-debs/") for deb in debs]
    with mounted(directory), open(log, "a") as f:
        result = chroot(directory, "apt-get", "install", "-y",
                        *[path.removeprefix(directory) for path in inside], check=False)
        f.write(result.stdout + result.stderr)
        assert result.returncode == 0, f"apt-get install of the packages: {result.stdout[-2000:]}{result.stderr}"
    shutil.rmtree(f"{directory}/var/cache/wearable-debs")
    if stub:
        module, version = stub
        target = f"{directory}/usr/lib/modules/{version}/updates"
        os.makedirs(target, exist_ok=True)
        shutil.copy(module, f"{target}/i2c-stub.ko")
        chroot(directory, "depmod", version)


def depends_of(debs):
    """The packages' own dependencies and recommends, by name (the base must hold them: nothing is
    downloaded when the .debs go in)."""
    names = []
    for deb in debs:
        for field in ("Depends", "Recommends"):
            value = sh(["dpkg-deb", "-f", deb, field], check=False).stdout
            for alternative in value.split(","):
                name = alternative.split("|")[0].split("(")[0].strip()
                if name:
                    names.append(name)
    return sorted(set(names))


def installed_state(root):
    """What installing the packages left, before anyone touched it: checked, and returned for the report."""
    state = {}
    entry = chroot(root, "getent", "passwd", "wearbridge").stdout.strip().split(":")
    assert entry[0] == "wearbridge" and int(entry[2]) < 1000, f"no system user wearbridge: {entry}"
    assert entry[5] == "/var/lib/wearbridge" and entry[6].endswith("nologin"), entry
    phone = chroot(root, "getent", "passwd", "wearbridge-phone").stdout.strip().split(":")
    assert phone[0] == "wearbridge-phone" and int(phone[2]) < 1000, phone
    for path, owner, mode in (("/var/lib/wearbridge", "wearbridge", 0o750),
                              ("/var/lib/wearbridge-phone", "wearbridge-phone", 0o770)):
        status = os.stat(root + path)
        name = chroot(root, "getent", "passwd", str(status.st_uid)).stdout.split(":")[0]
        assert name == owner and status.st_mode & 0o7777 == mode, f"{path}: {name} {oct(status.st_mode)}"
    for unit in ("wearbridge.service", "wearbridge-phone.service"):
        enabled = sh(["systemctl", f"--root={root}", "is-enabled", unit], check=False).stdout.strip()
        assert enabled == "disabled", f"{unit} is {enabled} after installation: it must wait for the user"
        state[unit] = enabled
    conffiles = sh(["dpkg-query", f"--admindir={root}/var/lib/dpkg", "-W", "-f=${Conffiles}", "wearbridge"]).stdout
    assert "/etc/wearbridge/wearbridge.toml" in conffiles, conffiles
    for path in ("/lib/udev/rules.d/70-wearbridge-bluetooth.rules", "/usr/share/man/man1/wearbridge.1.gz",
                 "/usr/share/man/man1/wearbridge-run.1.gz", "/usr/share/man/man1/wearbridge-phone.1.gz",
                 "/usr/lib/sysusers.d/wearbridge.conf", "/usr/lib/tmpfiles.d/wearbridge.conf",
                 "/usr/share/doc/wearbridge/README.md"):
        assert os.path.exists(root + path), f"{path} is not installed"
    state["conffiles"] = conffiles.strip()
    return state


def edit(path, replacements):
    """The user's edit of a shipped file: each (pattern, text) must match exactly once."""
    with open(path) as f:
        text = f.read()
    for pattern, replacement in replacements:
        text, count = re.subn(pattern, replacement, text, flags=re.MULTILINE)
        assert count == 1, f"{path}: {pattern!r} matched {count} times"
    with open(path, "w") as f:
        f.write(text)


def set_up_as_a_user(root, phone_fingerprint, phone_port, arch="amd64"):
    """README, "Installing on a wearable": the wearable's identity, /etc/wearbridge/wearbridge.toml (the strap, the
    phone, the activity), the receiver named to udev and gpsd, the unit enabled. Returns the
    wearable's certificate fingerprint, to pin on the phone."""
    with mounted(root):
        identity = chroot(root, "wearbridge", "identity").stdout
    fingerprint = re.search(r"fingerprint (\S+)", identity).group(1)
    key = os.stat(f"{root}/var/lib/wearbridge/identity.key.pem")
    owner = chroot(root, "getent", "passwd", str(key.st_uid)).stdout.split(":")[0]
    assert owner == "wearbridge" and key.st_mode & 0o777 == 0o600, f"identity key: {owner} {oct(key.st_mode)}"
    edit(f"{root}/etc/wearbridge/wearbridge.toml", [
        (r'^activity = "running"', 'activity = "cycling"'),
        (r'^address = "none"', f'address = "{STRAP}"'),
        (r'^# \[phone\]$', "[phone]"),
        (r'^# address = "192\.168\.1\.20".*$', 'address = "10.0.2.2"'),
        (r'^# port = 7370.*$', f"port = {phone_port}"),
        (r'^# fingerprint = "AB:CD:\.\.\."$', f'fingerprint = "{phone_fingerprint}"'),
        (r'^# name = "pi-vest".*$', 'name = "vest"'),
        (r'^#\[imu\]$', "[imu]"),
        (r'^#device = "auto"$', 'device = "auto"'),
        (r'^#placement = "hip"$', 'placement = "hip"'),
    ])
    with open(f"{root}/etc/udev/rules.d/61-gps.rules", "w") as f:
        f.write(UART_GPS_RULE if arch == "arm64" else GPS_RULE)
    edit(f"{root}/etc/default/gpsd", [
        (r'^DEVICES=""', 'DEVICES="/dev/gps0"'),
        (r'^GPSD_OPTIONS=""', 'GPSD_OPTIONS="-n"'),
    ])
    sh(["systemctl", f"--root={root}", "enable", "wearbridge.service"])
    return fingerprint


def set_up_the_test(root, kernel, venv, work, world_args, census=False, arch="amd64"):
    """The test's own parts: the host's file system (read-only) and the results folder over 9p, the
    probe, the virtual strap (Tests/ble/world.py, copied into `work`: the strap's root hides the
    host's /tmp), the network, the kernel's modules; bluetoothd masked, so that only the project's
    udev rule powers the controller on. On arm64 the strap's world runs on the host and its
    controller is on the guest's second serial line, which a unit attaches with btattach as
    Raspberry Pi OS's hciuart.service attaches a Pi's own UART controller; the kernel is the
    image's own."""
    if arch == "amd64":
        kernel_version = os.listdir(f"{kernel}/lib/modules")[0]
        modules = f"{root}/usr/lib/modules/{kernel_version}"
        shutil.rmtree(modules, ignore_errors=True)
        shutil.copytree(f"{kernel}/lib/modules/{kernel_version}", modules, symlinks=True)
        sh(["depmod", "-b", f"{root}/usr", kernel_version])
    # The journal kept on disk (Debian keeps it in memory unless this exists): boot 1's lines after
    # the power cut.
    os.makedirs(f"{root}/var/log/journal", exist_ok=True)
    with open(f"{root}/etc/hostname", "w") as f:
        f.write("wearable\n")
    with open(f"{root}/etc/fstab", "a") as f:
        if arch == "amd64":
            f.write("hostroot /mnt/host 9p trans=virtio,version=9p2000.L,ro,msize=512000,cache=loose,nofail 0 0\n")
        f.write("out /mnt/out 9p trans=virtio,version=9p2000.L,msize=512000,nofail 0 0\n")
    os.makedirs(f"{root}/mnt/host", exist_ok=True)
    os.makedirs(f"{root}/mnt/out", exist_ok=True)
    shutil.copy(f"{HERE}/guest/probe.sh", f"{root}/usr/local/lib/wearable-probe.sh")
    os.chmod(f"{root}/usr/local/lib/wearable-probe.sh", 0o755)
    shutil.copy(f"{HERE}/guest/wearable-probe.service", f"{root}/etc/systemd/system/")
    # The IMU bound and played by the test (test_pi.py's imu_check), the gait Tests/iio's own.
    shutil.copy(f"{HERE}/guest/imu.sh", f"{root}/usr/local/lib/wearable-imu.sh")
    shutil.copy(os.path.join(HERE, "..", "iio", "bmi160.py"), f"{root}/usr/local/lib/wearable-bmi160.py")
    if arch == "amd64":
        shutil.copy(f"{HERE}/guest/virtual-strap-root.service", f"{root}/etc/systemd/system/")
        with open(f"{HERE}/guest/virtual-strap.service.in") as f:
            world = shutil.copy(os.path.join(HERE, "..", "ble", "world.py"), os.path.join(work, "world.py"))
            unit = f.read().replace("@VENV@", venv).replace("@WORLD@", world).replace("@WORLD_ARGS@", world_args)
        with open(f"{root}/etc/systemd/system/virtual-strap.service", "w") as f:
            f.write(unit)
        strap_unit = "virtual-strap.service"
    else:
        shutil.copy(f"{HERE}/guest/bluetooth-uart.service", f"{root}/etc/systemd/system/")
        strap_unit = "bluetooth-uart.service"
        # The sound card's driver loaded before the services start, as a Pi's sound (on-board or an
        # I2S HAT's overlay) is probed from its device tree at boot: left to udev's coldplug, under
        # emulation the card came up seconds after the daemon, whose first cue then found no card
        # (dropped, output_failed; docs/hardware.md).
        with open(f"{root}/etc/modules-load.d/sound-card.conf", "w") as f:
            f.write("snd-hda-intel\n")
        # The second virtio console is the Bluetooth controller's line, not a terminal.
        sh(["systemctl", f"--root={root}", "mask", "serial-getty@hvc1.service"])
    os.makedirs(f"{root}/etc/systemd/network", exist_ok=True)
    shutil.copy(f"{HERE}/guest/20-wired.network", f"{root}/etc/systemd/network/")
    sh(["systemctl", f"--root={root}", "enable", "wearable-probe.service", strap_unit, "systemd-networkd.service"])
    sh(["systemctl", f"--root={root}", "mask", "bluetooth.service"])
    chroot(root, "passwd", "-d", "root")
    if census:
        # The system-call census: the daemon (and its cue player) under strace, no filter, so that
        # every call it makes is seen; systemd/README.md says how the filter was built from it.
        os.makedirs(f"{root}/etc/systemd/system/wearbridge.service.d", exist_ok=True)
        with open(f"{root}/etc/systemd/system/wearbridge.service.d/census.conf", "w") as f:
            f.write("[Service]\nSystemCallFilter=\nNotifyAccess=all\nExecStart=\n"
                    "ExecStart=/usr/bin/strace -f -qq -c -o /var/lib/wearbridge/census.txt "
                    "/usr/bin/wearbridge run --config /etc/wearbridge/wearbridge.toml\n")


def disk(root, path, size="2G"):
    """An ext4 image of the root file system (owners and modes kept: mkfs.ext4 -d as root)."""
    if os.path.exists(path):
        os.unlink(path)
    sh(["mkfs.ext4", "-q", "-F", "-L", "wearable", "-E", "root_owner=0:0", "-d", root, path, size])

