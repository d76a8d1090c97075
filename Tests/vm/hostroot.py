#!/usr/bin/env python3
"""The test VM: a real Linux Bluetooth stack and real IIO drivers with no hardware and nothing of
them in the host's kernel. qemu (software emulation) boots Debian's kernel (Tests/vm/debian_kernel.py)
whose root is the host's own file system over 9p under a tmpfs, so that the guest runs the host's
programs at their own paths; its PID 1 (hostroot-guest.sh) then runs the host's requests, one after
another, until the host powers it off. One boot serves every case of the VM phase
(Tests/vm/test_vm.py): each request may start a virtual world of Bluetooth LE devices
(Tests/ble/world.py, Bumble) behind the guest's /dev/vhci controller (hci0), or the system D-Bus and
Debian's bluetoothd (Tests/vm/guest/lib.sh), then run a case with `OUT` (a folder of /mnt/out that
comes back under WORK/out), `PEER_ADDRESS` (the strap), `PEER_ADDRESS_TYPE` and `HCI_DEVICE` in its
environment.

The guest's /tmp is a tmpfs of its own: whatever a case needs is copied into WORK/bin first
(`Guest.copy`), also so that a rebuild during the run cannot swap a binary under it.

As a command (one boot, one command, its exit code this program's):
       Tests/vm/hostroot.py [--work DIR] [--world ARGS] [--bluetoothd] [--copy FILE]... [--timeout S] COMMAND
       e.g. Tests/vm/hostroot.py --world "--strap --strap-battery 80" 'btmgmt -i hci0 info'
Needs root (apt-get, qemu's 9p export of /). Leaves its files in WORK (default /var/tmp/ble-vm):
console.log, out/ (per case: world.log, sent.jsonl, hci.btsnoop for `btmon -r`, the case's files;
requests/ with each request's output)."""
import argparse
import hashlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

import bumble  # noqa: E402
import debian_kernel  # noqa: E402
import qemu  # noqa: E402

# bluez-test-tools: btvirt (virtual BR/EDR controllers); bluez-alsa-utils and its ALSA plugin: A2DP
# for cues in headphones; sbc-tools: sbcdec, to hear what reached the headphones; jq reads the
# daemon's status in the guest's polling loops (python3 started there several times a second,
# emulated, would take a core).
PACKAGES = ["qemu-system-x86", "busybox-static", "bluez", "dbus", "cpio", "kmod", "xz-utils", "python3-venv",
            "bluez-test-tools", "bluez-alsa-utils", "libasound2-plugin-bluez", "sbc-tools", "i2c-tools", "jq"]
# virtio and 9p for the host's root, overlay for the tmpfs over it, the virtual HCI driver and what
# Bluetooth's LE security needs; the kernel's crypto sockets (AF_ALG) for BlueZ's btvirt, whose
# virtual controllers compute their pairing crypto through them; the I2C stub, userspace's I2C
# device nodes and the IIO drivers of the sensors it stands in for. The stub refuses to load without
# its chip's address, so the boot says "[init] insmod ...i2c-stub.ko failed": the barometer's test
# loads it again with one.
MODULES = ["virtio_pci", "9pnet_virtio", "9p", "overlay", "hci_vhci", "cmac", "algif_hash", "algif_skcipher", "ecb",
           "i2c_dev", "i2c_stub", "bmp280_i2c", "bmi160_i2c", "iio_trig_hrtimer"]


def say(message):
    print(f"[vm +{time.time() - STARTED:6.1f}s] {message}", flush=True)


def prepare(work):
    """Packages, the kernel, the initramfs and Bumble: each made once and kept in `work`."""
    subprocess.run([os.path.join(ROOT, "scripts", "build", "apt-need.sh"), "--no-install-recommends", *PACKAGES], check=True)
    kernel = debian_kernel.fetch(work)
    init = os.path.join(HERE, "hostroot-init.sh")
    image = os.path.join(work, "hostroot-initramfs.gz")
    stamp = f"{os.path.basename(kernel)} {hashlib.sha256(open(init, 'rb').read()).hexdigest()} {' '.join(MODULES)}"
    stamp_path = image + ".for"
    if not os.path.exists(image) or not os.path.exists(stamp_path) or open(stamp_path).read() != stamp:
        debian_kernel.initramfs(kernel, MODULES, init, image)
        with open(stamp_path, "w") as f:
            f.write(stamp)
    return kernel, image, bumble.venv(work)


def stage(work, copies):
    """The guest's own copies of the stage-2 script, its library, the world and the cases' files, in WORK/bin."""
    directory = os.path.join(work, "bin")
    os.makedirs(directory, exist_ok=True)
    for path in [os.path.join(HERE, "hostroot-guest.sh"), os.path.join(HERE, "guest", "lib.sh"),
                 os.path.join(ROOT, "Tests", "ble", "world.py"), *copies]:
        copy(directory, path)
    return directory


def copy(directory, path):
    target = os.path.join(directory, os.path.basename(path))
    shutil.copy2(path, target + ".part")
    os.replace(target + ".part", target)
    return target


class Guest:
    """One boot of the test VM and the requests it runs. `boot()` returns once the guest's agent
    answers (a guest kernel that died or hung in early boot is booted again, twice at most, and
    said so); `run()` runs a shell script there; `power_off()` ends it."""

    def __init__(self, work):
        self.work = work
        self.out = os.path.join(work, "out")
        self.process = None
        self.requests = 0
        self.boots = 0

    def boot(self, timeout=600):
        kernel, initramfs, venv = prepare(self.work)
        say(f"kernel {os.path.basename(kernel)}, Bumble in {venv}")
        self.bin = stage(self.work, [])
        for attempt in range(1, qemu.BOOTS + 1):
            shutil.rmtree(self.out, ignore_errors=True)
            os.makedirs(os.path.join(self.out, "requests"))
            with open(os.path.join(self.out, "guest.env"), "w") as f:
                f.write(f"VENV={shlex.quote(venv)}\nWORLD={shlex.quote(self.bin + '/world.py')}\n"
                        f"BIN={shlex.quote(self.bin)}\n")
            say(f"booting (attempt {attempt} of {qemu.BOOTS})")
            self.boots += 1
            self.console = os.path.join(self.work, "console.log")
            args = ["qemu-system-x86_64", *qemu.MACHINE,
                    "-kernel", debian_kernel.vmlinuz(kernel), "-initrd", initramfs,
                    "-append", f"console=ttyS0 quiet panic=-1 vm.stage2={self.bin}/hostroot-guest.sh",
                    "-virtfs", "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap",
                    "-virtfs", f"local,path={self.out},mount_tag=out,security_model=none,multidevs=remap"]
            with open(self.console, "wb") as f:
                self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=f, stderr=subprocess.STDOUT,
                                                start_new_session=True)
            self.started = time.time()
            failure = self._wait_ready(timeout)
            if failure is None:
                say(f"the agent answers, {time.time() - self.started:.0f} s after qemu started")
                return self
            say(f"{failure} before its shell; booting again")
            self.stop()
        raise AssertionError(f"the guest kernel failed early in every boot; its console: {self.console}")

    def _wait_ready(self, timeout):
        deadline = time.time() + timeout
        ready = os.path.join(self.out, "agent-ready")
        while time.time() < deadline:
            if os.path.exists(ready):
                return None
            text = self.console_text()
            failure = None if "stage2_shell" in text else qemu.early_boot_failure(text)
            if failure:
                return failure
            if self.process.poll() is not None:
                raise AssertionError(f"qemu exited {self.process.returncode} before the agent answered; "
                                     f"its console: {self.console}\n{self.console_tail()}")
            time.sleep(0.2)
        raise AssertionError(f"the guest's agent did not answer within {timeout} s; console: {self.console}\n"
                             f"{self.console_tail()}")

    def console_text(self):
        with open(self.console, errors="replace") as f:
            return f.read()

    def console_tail(self, lines=25):
        return "\n".join(self.console_text().splitlines()[-lines:])

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def copy(self, path):
        """A file a case needs, copied into WORK/bin; its path there (the same in the guest)."""
        return copy(self.bin, path)

    def folder(self, name):
        """A case's results folder: /mnt/out/NAME in the guest, WORK/out/NAME here (made afresh)."""
        path = os.path.join(self.out, name)
        shutil.rmtree(path, ignore_errors=True)
        os.makedirs(path)
        return path

    def run(self, script, timeout=600, check=True, case=None):
        """`script` run by the guest's agent as root, with the guest's library sourced and, for a
        case, OUT set to its folder; its output. A script still running after `timeout` seconds is
        killed in the guest and fails here."""
        self.requests += 1
        base = os.path.join(self.out, "requests", f"{self.requests:04d}")
        prelude = f". {self.bin}/lib.sh\nexport PEER_ADDRESS=F1:F1:F1:F1:F1:F1 PEER_ADDRESS_TYPE=random HCI_DEVICE=hci0\n"
        if case:
            prelude += f"export OUT=/mnt/out/{case}\n"
        with open(base + ".timeout", "w") as f:
            f.write(str(int(timeout)))
        with open(base + ".part", "w") as f:
            f.write(prelude + script + "\n")
        os.rename(base + ".part", base + ".sh")
        deadline = time.time() + timeout + 60
        while time.time() < deadline:
            if os.path.exists(base + ".rc"):
                with open(base + ".rc") as f:
                    rc = int(f.read().strip())
                with open(base + ".out", errors="replace") as f:
                    output = f.read()
                if rc == 124 or rc == 137:
                    raise AssertionError(f"in the guest, still running after its guard of {timeout} s (killed): "
                                         f"{script.strip()[:200]}\n{output[-3000:]}")
                if check and rc != 0:
                    raise AssertionError(f"in the guest, exit {rc}: {script.strip()[:200]}\n{output[-3000:]}")
                return output
            if not self.alive():
                raise AssertionError(f"the VM stopped while running: {script.strip()[:200]}\n{self.console_tail()}")
            time.sleep(0.2)
        raise AssertionError(f"the guest's agent did not answer in {timeout + 60} s: {script.strip()[:200]}")

    def power_off(self, timeout=60):
        """The agent syncs and powers the VM off; killed if it does not within `timeout` s."""
        if not self.alive():
            return
        self.requests += 1
        base = os.path.join(self.out, "requests", f"{self.requests:04d}")
        open(base + ".poweroff", "w").close()
        with open(base + ".part", "w") as f:
            f.write("true\n")
        os.rename(base + ".part", base + ".sh")
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            say(f"the VM did not power off within {timeout} s; killed")
        self.stop()

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", default=os.environ.get("BLE_VM_WORK", "/var/tmp/ble-vm"))
    parser.add_argument("--world", default="--strap", help="Tests/ble/world.py's options")
    parser.add_argument("--copy", action="append", default=[], help="a file the command needs, into WORK/bin")
    parser.add_argument("--timeout", type=int, default=240, help="seconds the command may run")
    parser.add_argument("--bluetoothd", action="store_true",
                        help="the system D-Bus and Debian's bluetoothd running in the guest, as on a Pi")
    parser.add_argument("command", help="a shell command, run by sh in the guest")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    guest = Guest(args.work)
    try:
        guest.boot()
        for path in args.copy:
            guest.copy(path)
        guest.folder("cmd")
        setup = ""
        if args.bluetoothd:
            setup += "bluetoothd_start /mnt/out/cmd/bluetoothd.log || exit 2\n"
        setup += f"world_start /mnt/out/cmd {args.world} || exit 2\n"
        output = guest.run(setup + args.command, timeout=args.timeout, check=False, case="cmd")
        print(output, end="")
        with open(os.path.join(guest.out, "requests", f"{guest.requests:04d}.rc")) as f:
            rc = int(f.read().strip())
        say(f"the command exited {rc}; its files: {guest.out}/cmd")
        return rc
    finally:
        guest.power_off()


STARTED = time.time()

if __name__ == "__main__":
    sys.exit(main())
