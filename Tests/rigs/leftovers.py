"""Every process a test starts is stopped when the test ends, passed or failed. Each process the
suite starts carries a mark in its environment (WEARBRIDGE_TEST_RUN, inherited by its children,
gpsfake's gpsd and a VM's qemu included): the run's, then the worker's, then the test's, each
beginning with the one before. What is still alive with a test's mark after it ended is named,
killed, and fails the test; scripts/rigs/no-leftovers.sh does the same for the whole run at its end."""
import os
import re
import signal

MARK = "WEARBRIDGE_TEST_RUN"


def child_mark(parent, name):
    """The mark of a test (or a worker) within `parent`'s: the name made safe for an environment."""
    return f"{parent}/{re.sub(r'[^A-Za-z0-9_.:-]+', '_', name)[-120:]}"


def marked(mark, exact=False):
    """(pid, command line) of every process but this one and its parent whose mark is `mark` or,
    unless `exact`, begins with `mark/`."""
    wanted = f"{MARK}={mark}".encode()
    ours = {os.getpid(), os.getppid()}
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in ours:
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                variables = f.read().split(b"\0")
            if not any(v == wanted or (not exact and v.startswith(wanted + b"/")) for v in variables):
                continue
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                command = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        if command:  # a zombie has none: it is gone, only not reaped yet
            found.append((int(entry), command))
    return found


def kill(found):
    for pid, _ in found:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def describe(found):
    return "; ".join(f"pid {pid}: {command[:160]}" for pid, command in found)
