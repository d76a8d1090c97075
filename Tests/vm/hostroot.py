#!/usr/bin/env python3
"""A command run on a real Linux Bluetooth stack with no Bluetooth hardware and no Bluetooth in the
host's kernel: qemu (software emulation) boots Debian's kernel (Tests/vm/debian_kernel.py) whose root
is the host's own file system over 9p under a tmpfs, so that the guest runs the host's programs at
their own paths; a virtual world of Bluetooth LE devices (Tests/ble/world.py, Bumble) sits behind
the guest's /dev/vhci controller (hci0), powered on through the kernel's management API; then the
command runs with `OUT` (/mnt/out in the guest: a folder that comes back as WORK/out), `PEER_ADDRESS` (the strap),
`PEER_ADDRESS_TYPE` and `HCI_DEVICE` in its environment. Its exit code is this
program's.

The guest's /tmp is a tmpfs of its own: whatever the command needs is copied into WORK/bin first
(`--copy`), also so that a rebuild during the run cannot swap a binary under it.

Usage: Tests/vm/hostroot.py [--work DIR] [--world ARGS] [--copy FILE]... [--timeout S] COMMAND
       e.g. Tests/vm/hostroot.py --world "--strap --strap-battery 80" 'btmgmt -i hci0 info'
Needs root (apt-get, qemu's 9p export of /). Leaves its files in WORK (default /var/tmp/ble-vm):
console.log, out/ (world.log, sent.jsonl, hci.btsnoop for `btmon -r`, cmd.log, timings)."""
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
# for cues in headphones; sbc-tools: sbcdec, to hear what reached the headphones.
PACKAGES = ["qemu-system-x86", "busybox-static", "bluez", "dbus", "cpio", "kmod", "xz-utils", "python3-venv",
            "bluez-test-tools", "bluez-alsa-utils", "libasound2-plugin-bluez", "sbc-tools", "i2c-tools"]
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
    subprocess.run([os.path.join(ROOT, "scripts", "apt-need.sh"), "--no-install-recommends", *PACKAGES], check=True)
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
    """The guest's own copies of the stage-2 script, the world and the command's files, in WORK/bin."""
    directory = os.path.join(work, "bin")
    os.makedirs(directory, exist_ok=True)
    for path in [os.path.join(HERE, "hostroot-guest.sh"), os.path.join(ROOT, "Tests", "ble", "world.py"), *copies]:
        target = os.path.join(directory, os.path.basename(path))
        shutil.copy2(path, target + ".part")
        os.replace(target + ".part", target)
    return directory


def boot(work, kernel, initramfs, bin_dir, out, timeout):
    """One boot; (qemu's exit status or None if killed, why the guest kernel failed early or None)."""
    console = os.path.join(work, "console.log")
    args = ["qemu-system-x86_64", *qemu.MACHINE,
            "-kernel", debian_kernel.vmlinuz(kernel), "-initrd", initramfs,
            "-append", f"console=ttyS0 quiet panic=-1 vm.stage2={bin_dir}/hostroot-guest.sh",
            "-virtfs", "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap",
            "-virtfs", f"local,path={out},mount_tag=out,security_model=none,multidevs=remap"]
    with open(console, "wb") as f:
        process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=f, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    deadline = time.time() + timeout
    try:
        while process.poll() is None:
            text = open(console, errors="replace").read()
            failure = None if "stage2_shell" in text else qemu.early_boot_failure(text)
            if failure or time.time() > deadline:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                if failure:
                    return None, failure
                say(f"qemu did not power off within {timeout} s; killed")
                return None, None
            time.sleep(0.2)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    text = open(console, errors="replace").read()
    return process.returncode, (None if "stage2_shell" in text else qemu.early_boot_failure(text))


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
    kernel, initramfs, venv = prepare(args.work)
    say(f"kernel {os.path.basename(kernel)}, Bumble in {venv}")
    bin_dir = stage(args.work, args.copy)
    out = os.path.join(args.work, "out")
    for attempt in range(1, qemu.BOOTS + 1):
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        with open(os.path.join(out, "guest.env"), "w") as f:
            f.write(f"VENV={shlex.quote(venv)}\nWORLD={shlex.quote(bin_dir + '/world.py')}\n"
                    f"WORLD_ARGS={shlex.quote(args.world)}\nCMD_TIMEOUT={args.timeout}\n"
                    f"BLUETOOTHD={1 if args.bluetoothd else 0}\n")
        with open(os.path.join(out, "guest-cmd.sh"), "w") as f:
            f.write(args.command + "\n")
        say(f"booting (attempt {attempt} of {qemu.BOOTS}); the command may run {args.timeout} s")
        status, failure = boot(args.work, kernel, initramfs, bin_dir, out, args.timeout + 180)
        if failure is None:
            break
        say(f"{failure} before its shell; booting again")
    else:
        say(f"the guest kernel failed early in every boot; its console: {args.work}/console.log")
        return 3
    console = open(os.path.join(args.work, "console.log"), errors="replace").read()
    for line in console.splitlines():
        if line.startswith("[guest") or line.startswith("[init]"):
            print(line)
    try:
        rc = int(open(os.path.join(out, "rc")).read())
    except (OSError, ValueError):
        say(f"the guest left no exit code (qemu {status}); console: {args.work}/console.log")
        print("\n".join(console.splitlines()[-20:]))
        return 3
    say(f"the command exited {rc}; its output: {out}/cmd.log, the world's log: {out}/world.log")
    return rc


STARTED = time.time()

if __name__ == "__main__":
    sys.exit(main())
