"""The virtual wearable: qemu (software emulation) booting Debian's kernel on the wearable's disk with
systemd as PID 1, a USB serial GPS, an HDA sound card whose output goes to a WAV file on the host,
a network on which the host (and the phone) is 10.0.2.2, and two 9p shares (the host's file system,
read-only, for the virtual strap; a results folder). The power is cut by killing qemu.

The virtual Raspberry Pi (arch "arm64"): qemu's `virt` machine with Cortex-A53 cores (a Pi 3's and
a Zero 2 W's) and 1 GiB (a Pi 3's); the GPS on its PL011 UART, ttyAMA0, as a Pi GPS HAT is wired;
the console on a virtio console (hvc0), since the PL011 is the GPS's; the Bluetooth controller on a
second one (hvc1), its far end the host's Bumble world. qemu's `raspi3b` machine has the Pi's
PL011 too, but no PCI, so no virtio disk, network or 9p share, and a 1 GiB ceiling with its USB
the only way in: the test could not reach the guest, nor the guest its phone."""
import os
import re
import signal
import subprocess
import time

import qemu
from image import GPS_SERIAL


class Wearable:
    def __init__(self, work, disk, kernel, initramfs, out, gps_socket, arch="amd64", bluetooth_socket=None):
        self.arch = arch
        self.bluetooth_socket = bluetooth_socket
        self.work = work
        self.disk = disk
        self.kernel = kernel
        self.initramfs = initramfs
        self.out = out
        self.gps_socket = gps_socket
        self.process = None
        self.boots = 0
        self.requests = 0

    def boot(self, wav):
        self.boots += 1
        self.console = f"{self.work}/console-{self.boots}.log"
        args = self.pi_args(wav) if self.arch == "arm64" else [
            "qemu-system-x86_64", *qemu.MACHINE, "-rtc", "base=utc",
            "-kernel", self.kernel, "-initrd", self.initramfs,
            "-append", "console=ttyS0 root=/dev/vda rw panic=-1 quiet loglevel=4 systemd.show_status=0",
            "-drive", f"file={self.disk},if=virtio,format=raw",
            "-netdev", "user,id=net0", "-device", "virtio-net-pci,netdev=net0",
            "-device", "qemu-xhci",
            "-chardev", f"socket,id=gps,path={self.gps_socket},server=on,wait=off",
            "-device", f"usb-serial,chardev=gps,serial={GPS_SERIAL},always-plugged=on",
            "-audiodev", f"wav,id=sound,path={wav}",
            "-device", "intel-hda", "-device", "hda-output,audiodev=sound",
            "-virtfs", "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap",
            "-virtfs", f"local,path={self.out},mount_tag=out,security_model=none,multidevs=remap",
        ]
        self.started = time.time()
        self.known_ready = {name for name in os.listdir(self.out) if name.startswith("probe-ready-")}
        with open(self.console, "wb") as console:
            self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=console, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        return self

    def pi_args(self, wav):
        return [
            "qemu-system-aarch64", *qemu.PI_MACHINE,
            "-kernel", self.kernel, "-initrd", self.initramfs,
            "-append", "console=hvc0 root=/dev/vda rw panic=-1 quiet loglevel=4 systemd.show_status=0",
            "-drive", f"file={self.disk},if=none,id=disk,format=raw", "-device", "virtio-blk-pci,drive=disk",
            "-netdev", "user,id=net0", "-device", "virtio-net-pci,netdev=net0",
            "-chardev", f"socket,id=gps,path={self.gps_socket},server=on,wait=off", "-serial", "chardev:gps",
            "-device", "virtio-serial-pci",
            "-chardev", "stdio,id=console,signal=off", "-device", "virtconsole,chardev=console",
            "-chardev", f"socket,id=bluetooth,path={self.bluetooth_socket}", "-device", "virtconsole,chardev=bluetooth",
            "-audiodev", f"wav,id=sound,path={wav}",
            "-device", "intel-hda", "-device", "hda-output,audiodev=sound",
            "-virtfs", f"local,path={self.out},mount_tag=out,security_model=none,multidevs=remap",
        ]

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def console_text(self):
        with open(self.console, errors="replace") as f:
            return f.read()

    def wait_for_probe(self, timeout=None):
        """The guest's boot id once its probe runs (systemd up, the shares mounted); None if the
        guest kernel died or hung first (Tests/vm/qemu.py), so that the caller may boot again. The
        Pi, an arm64 guest under TCG, gets twice the amd64 guest's 240 s."""
        timeout = timeout or (480 if self.arch == "arm64" else 240)
        deadline = time.time() + timeout
        while time.time() < deadline:
            fresh = [name for name in os.listdir(self.out)
                     if name.startswith("probe-ready-") and name not in self.known_ready]
            if fresh:
                return fresh[0].removeprefix("probe-ready-")
            console = self.console_text()
            if not self.alive() or qemu.early_boot_failure(console):
                return None
            time.sleep(0.2)
        raise AssertionError(f"the wearable did not come up in {timeout} s; console: {self.console}")

    def run(self, script, timeout=60, check=True):
        """`script` run by the guest's probe as root; its output (stdout and stderr together)."""
        self.requests += 1
        directory = f"{self.out}/requests"
        base = f"{directory}/{self.requests:04d}"
        with open(base + ".part", "w") as f:
            f.write(script)
        os.rename(base + ".part", base + ".sh")
        deadline = time.time() + timeout
        while time.time() < deadline:
            if os.path.exists(base + ".rc"):
                with open(base + ".rc") as f:
                    rc = int(f.read().strip())
                with open(base + ".out", errors="replace") as f:
                    output = f.read()
                if check and rc != 0:
                    raise AssertionError(f"in the guest, exit {rc}: {script.strip()}\n{output}")
                return output
            if not self.alive():
                raise AssertionError(f"the wearable stopped while running: {script.strip()}")
            time.sleep(0.1)
        raise AssertionError(f"the guest did not answer in {timeout} s: {script.strip()}")

    def power_cut(self):
        """qemu killed: the wearable loses power mid-write, its page cache with it."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def power_off(self, timeout=150):
        """A clean shutdown from inside (systemd stops the daemon with SIGTERM); the seconds it took.
        systemd's status is left off the console: with it on (SIGRTMIN+20) the guest's PID 1 hung
        in its shutdown twice in a row, every stop job waiting, while without it no shutdown ever
        hung. Our units stop within their TimeoutStopSec (20 s at most); the patience covers a
        system unit that runs into systemd's default 90 s under software emulation."""
        began = time.time()
        try:
            self.run("systemctl poweroff --no-block", timeout=20)
        except AssertionError:
            pass
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.power_cut()
            console = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", self.console_text())
            tail = "\n".join(console.splitlines()[-25:])
            raise AssertionError(f"the wearable did not power off in {timeout} s; console:\n{tail}")
        return round(time.time() - began, 1)

    def stop(self):
        if self.alive():
            self.power_cut()
