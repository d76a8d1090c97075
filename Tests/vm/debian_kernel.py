"""Debian's own kernel for the test VMs, fetched from Debian's archive by name (`apt-get download`,
never installed on the host), and a small busybox initramfs that loads the modules a VM needs before
its root is mounted. Shared by the Bluetooth VM (Tests/vm/hostroot.py) and the virtual wearable
(Tests/pi).

Debian 12's own 6.1 kernels fail the `ecdh-nist-p256` self-test under qemu's software emulation, so
LE pairing is unavailable there; 6.12 (in bookworm's security suite) passes it and is the default."""
import os
import re
import shutil
import subprocess

KERNEL_META = os.environ.get("VM_KERNEL_META", "linux-image-6.12-amd64")


def sh(args, **kwargs):
    kwargs.setdefault("check", True)
    return subprocess.run(args, capture_output=True, text=True, **kwargs)


def package():
    """The exact kernel package the meta-package names (linux-image-6.12.N+deb12-amd64); apt's lists
    are brought up to date once if they do not know it."""
    def named():
        for line in sh(["apt-cache", "depends", KERNEL_META], check=False).stdout.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == "Depends:" and re.match(r"linux-image-[0-9]", parts[1]):
                return parts[1]
        return None
    found = named()
    if found is None and sh(["apt-get", "update", "-qq"], check=False).returncode == 0:
        found = named()
    if found is None:
        raise SystemExit(f"vm: apt knows no kernel package behind {KERNEL_META} (is bookworm-security in the sources?)")
    return found


def fetch(work):
    """The kernel package extracted into `work` (once; kept for the next run): its directory."""
    name = package()
    directory = os.path.join(work, f"kpkg-{name}")
    if not os.path.exists(os.path.join(directory, ".done")):
        download = os.path.join(work, "download")
        shutil.rmtree(directory, ignore_errors=True)
        shutil.rmtree(download, ignore_errors=True)
        os.makedirs(download)
        result = sh(["apt-get", "download", name], cwd=download, check=False)
        if result.returncode != 0:
            raise SystemExit(f"vm: apt-get download {name} failed: {result.stderr.strip()[-300:]}")
        debs = [f for f in os.listdir(download) if f.endswith(".deb")]
        sh(["dpkg", "-x", os.path.join(download, debs[0]), directory])
        shutil.rmtree(download)
        sh(["depmod", "-b", directory, version(directory)])
        open(os.path.join(directory, ".done"), "w").close()
    return directory


def version(kernel):
    return os.listdir(os.path.join(kernel, "lib", "modules"))[0]


def vmlinuz(kernel):
    return os.path.join(kernel, "boot", f"vmlinuz-{version(kernel)}")


def initramfs(kernel, modules, init, image):
    """busybox, `init` as /init, and `modules` with everything they depend on, uncompressed (busybox's
    insmod loads them) and listed in load order in /modules.order."""
    kernel_version = version(kernel)
    tree = image + ".tree"
    shutil.rmtree(tree, ignore_errors=True)
    for d in ("bin", "proc", "sys", "dev", "newroot", "mnt"):
        os.makedirs(os.path.join(tree, d))
    shutil.copy("/bin/busybox", os.path.join(tree, "bin", "busybox"))
    order = []
    for module in modules:
        for line in sh(["modprobe", "-d", kernel, "-S", kernel_version, "--show-depends", module]).stdout.splitlines():
            if not line.startswith("insmod "):
                continue
            path = line.split()[1]
            relative = path.split("/lib/modules/", 1)[1]
            tool = None
            for suffix, command in ((".xz", ["xz", "-dc"]), (".zst", ["zstd", "-qdc"]), (".gz", ["gzip", "-dc"])):
                if relative.endswith(suffix):
                    relative, tool = relative.removesuffix(suffix), command
            if relative in order:
                continue
            target = os.path.join(tree, "lib", "modules", relative)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as out:
                if tool:
                    subprocess.run(tool + [path], stdout=out, check=True)
                else:
                    with open(path, "rb") as source:
                        shutil.copyfileobj(source, out)
            order.append(relative)
    with open(os.path.join(tree, "modules.order"), "w") as f:
        f.write("\n".join(order) + "\n")
    shutil.copy(init, os.path.join(tree, "init"))
    os.chmod(os.path.join(tree, "init"), 0o755)
    files = subprocess.run(["find", "."], cwd=tree, capture_output=True, check=True).stdout
    archive = subprocess.run(["cpio", "-o", "-H", "newc", "--quiet"], cwd=tree, input=files, capture_output=True,
                             check=True).stdout
    with open(image, "wb") as f:
        f.write(subprocess.run(["gzip", "-1"], input=archive, capture_output=True, check=True).stdout)
    shutil.rmtree(tree)
    return image
