"""Bumble, the Bluetooth stack in Python the virtual world is built with (Tests/ble/world.py), in a
virtual environment of the test's own: pinned, because world.py mends a LocalLink bug of this
version. About 68 MB of wheels from PyPI, installed once and kept in the work folder."""
import os
import shutil
import subprocess

SPEC = "bumble==0.0.236"


def venv(work):
    """The folder of a virtual environment with Bumble in it, made if it is missing or broken."""
    directory = os.path.join(work, "venv")
    python = os.path.join(directory, "bin", "python")
    stamp = os.path.join(directory, ".spec")
    if os.path.exists(stamp) and open(stamp).read() == SPEC and \
            subprocess.run([python, "-c", "import bumble"], capture_output=True).returncode == 0:
        return directory
    shutil.rmtree(directory, ignore_errors=True)
    made = subprocess.run(["/usr/bin/python3", "-m", "venv", directory], capture_output=True, text=True)
    if made.returncode != 0:
        raise SystemExit(f"vm: python3 -m venv failed (python3-venv missing?): {made.stderr.strip()[-300:]}")
    installed = subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", SPEC],
                               capture_output=True, text=True)
    if installed.returncode != 0:
        raise SystemExit(f"vm: pip install {SPEC} failed: {installed.stderr.strip()[-400:]}")
    with open(stamp, "w") as f:
        f.write(SPEC)
    return directory
