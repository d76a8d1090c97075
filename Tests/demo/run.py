#!/usr/bin/env python3
"""The demo (scripts/demo.sh) where it cannot work: each case stops within seconds with one line
saying what is wrong and where its log is, and leaves nothing running.

* no recording at the path given: before anything is installed or built;
* gpsd's port (GPSD_PORT) taken by another program: likewise;
* no programs where WEARBRIDGE_BIN points (the installed packages' folder, say);
* a file gpsfake cannot read as a receiver's log (text): gpsfake's own words;
* a log gpsfake plays but that holds nothing (an empty file): the receiver gpsd was given sends
  nothing, or has already been removed by gpsfake, which the daemon learns from gpsd within seconds;
* a receiver that never gets a fix: the reason the daemon learnt from gpsd (searching, with the
  satellites it sees), after DEMO_FIX_WITHIN.

The last three run the demo's setup and its (incremental) release build first, or use the programs
WEARBRIDGE_BIN names (the suite gives its debug build); their clock starts when the build's line, or
the line naming the programs, is printed. Usage: Tests/demo/run.py [CASE...]"""
import os
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "rigs"))
from harness import ENV  # noqa: E402

LIMIT = 10.0


def searching_receiver(seconds):
    """NMEA of a receiver that sees three satellites and never gets a fix."""
    def sentence(body):
        checksum = 0
        for byte in body.encode():
            checksum ^= byte
        return f"${body}*{checksum:02X}"
    lines = []
    for second in range(seconds):
        clock = f"12{second // 60:02d}{second % 60:02d}.00"
        lines += [sentence(f"GPGGA,{clock},,,,,0,00,99.9,,M,,M,,"), sentence("GPGSA,A,1,,,,,,,,,,,,,99.9,99.9,99.9"),
                  sentence("GPGSV,1,1,03,05,40,120,21,12,25,250,18,24,60,300,"),
                  sentence(f"GPRMC,{clock},V,,,,,,,271126,,,N")]
    return "\n".join(lines) + "\n"


def demo(arguments, environment=None):
    """The demo's exit status, its stderr lines, and the seconds from its start (or from its build
    line, when it printed one) to its end."""
    env = dict(ENV, **(environment or {}))
    began = time.time()
    process = subprocess.Popen(["scripts/demo.sh", *arguments], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    clock = began
    for line in process.stdout:
        if line.startswith(("building wearbridge", "using wearbridge")):
            clock = time.time()
    process.wait(timeout=600)
    ended = time.time()
    errors = [line for line in process.stderr.read().splitlines() if line.strip()]
    return process.returncode, errors, ended - clock


def says(line, text):
    """Whether the line holds the text, or one of them when a tuple gives alternatives."""
    return any(choice in line for choice in text) if isinstance(text, tuple) else text in line


def expect_one_line(name, result, starts, within=LIMIT, contains=()):
    status, errors, seconds = result
    problems = []
    if status == 0:
        problems.append("the demo succeeded")
    if len(errors) != 1:
        problems.append(f"{len(errors)} lines on stderr, not one: {errors}")
    elif not errors[0].startswith(starts) or not all(says(errors[0], text) for text in contains):
        problems.append(f"the line does not say {starts!r} {contains}: {errors[0]!r}")
    if seconds > within:
        problems.append(f"it took {seconds:.1f} s (limit {within} s)")
    leftovers = subprocess.run(["pgrep", "-f", "wearbridge-demo"], capture_output=True, text=True).stdout.split()
    if leftovers:
        problems.append(f"processes left running: {leftovers}")
    print(f"{'ok  ' if not problems else 'FAIL'} {name}: {seconds:.1f} s, {errors[-1] if errors else ''}")
    for problem in problems:
        print(f"     {problem}")
    return not problems


def no_recording(_work):
    return expect_one_line("no recording", demo(["/nonexistent/run.nmea"]), "demo: no recording at /nonexistent/run.nmea")


def port_taken(_work):
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    try:
        return expect_one_line("gpsd's port taken", demo([], {"GPSD_PORT": str(port)}),
                               f"demo: port {port} (GPSD_PORT) is taken")
    finally:
        holder.close()


def no_programs(work):
    return expect_one_line("no programs where WEARBRIDGE_BIN says", demo([], {"WEARBRIDGE_BIN": work}),
                           f"demo: no wearbridge and wearbridge-phone in {work}")


def not_a_log(work):
    text = os.path.join(work, "notes.txt")
    with open(text, "w") as f:
        f.write("not a receiver's log\n")
    return expect_one_line("not a log", demo([text]), "demo: gpsfake stopped",
                           contains=("zero-length packet", "gpsfake.log"))


def empty_log(work):
    empty = os.path.join(work, "empty.nmea")
    open(empty, "w").close()
    # gpsfake removes the receiver from gpsd once its log is played out, which for an empty log may
    # come before the deadline: gpsd then lists no receiver, and the daemon says so instead.
    return expect_one_line("an empty log", demo([empty]), "demo: no fix after",
                           contains=(("no report from the receiver", "gpsd has no receiver attached"),
                                     "gpsfake.log", "daemon.log"))


def no_fix(work):
    log = os.path.join(work, "searching.nmea")
    with open(log, "w") as f:
        f.write(searching_receiver(600))
    return expect_one_line("no fix", demo([log], {"DEMO_FIX_WITHIN": "5"}), "demo: no fix after",
                           within=5 + LIMIT, contains=("the receiver is searching, 3 satellites seen, 0 used",
                                                       "daemon.log"))


def main():
    cases = {"no_recording": no_recording, "port_taken": port_taken, "no_programs": no_programs, "not_a_log": not_a_log,
             "empty_log": empty_log, "no_fix": no_fix}
    chosen = sys.argv[1:] or list(cases)
    ok = True
    with tempfile.TemporaryDirectory(prefix="wearbridge-demo-test.") as work:
        for name in chosen:
            ok &= cases[name](work)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
