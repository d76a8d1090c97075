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

The last three use the programs WEARBRIDGE_BIN names (the suite's debug build). How long each took,
from the line naming the programs to its end, is printed as a figure: under load it is longer, and
the guard against a hang (HANG) is generous; that it stops by itself, with its one line, is the check."""
import os
import socket
import subprocess
import time

from harness import BIN, ENV, ROOT

HANG = 120.0


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
    env = dict(ENV, WEARBRIDGE_BIN=BIN)
    env.update(environment or {})
    began = time.time()
    process = subprocess.Popen(["scripts/demo.sh", *arguments], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    clock = began
    for line in process.stdout:
        if line.startswith(("building wearbridge", "using wearbridge")):
            clock = time.time()
    try:
        process.wait(timeout=HANG + 600)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, 9)
        process.wait()
    ended = time.time()
    errors = [line for line in process.stderr.read().splitlines() if line.strip()]
    return process.returncode, errors, ended - clock


def test_the_demo_records_and_relays():
    """The README's first command with the suite's programs: gpsfake plays the park run into a real
    gpsd, the daemon records it, relays it to the phone, which pauses, resumes and ends the session;
    its distance and every critical and notice message at the phone."""
    env = dict(ENV, WEARBRIDGE_BIN=BIN)
    result = subprocess.run(["scripts/demo.sh"], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=HANG + 900, start_new_session=True)
    out = result.stdout
    assert result.returncode == 0, f"the demo exited {result.returncode}: {out[-3000:]}{result.stderr[-2000:]}"
    for said in ("first live figures", "ACK pause", "ACK resume", "ACK end", "session_started", "session_ended"):
        assert said in out, f"the demo did not print {said!r}: {out[-3000:]}"
    distance = [line for line in out.splitlines() if line.startswith("distance ")][-1]
    kilometres = float(distance.split()[1])
    # The park run (data/gps/park_loop_run.nmea) is 6.0 km; the session begins at the first fix and
    # is ended as the recording ends.
    assert 5.6 < kilometres < 6.1, distance
    print(f"the demo: {distance}")


def says(line, text):
    """Whether the line holds the text, or one of them when a tuple gives alternatives."""
    return any(choice in line for choice in text) if isinstance(text, tuple) else text in line


def expect_one_line(name, result, starts, contains=()):
    status, errors, seconds = result
    problems = []
    if status == 0:
        problems.append("the demo succeeded")
    if len(errors) != 1:
        problems.append(f"{len(errors)} lines on stderr, not one: {errors}")
    elif not errors[0].startswith(starts) or not all(says(errors[0], text) for text in contains):
        problems.append(f"the line does not say {starts!r} {contains}: {errors[0]!r}")
    if seconds > HANG:
        problems.append(f"it took {seconds:.1f} s: hung")
    leftovers = subprocess.run(["pgrep", "-f", "wearbridge-demo"], capture_output=True, text=True).stdout.split()
    if leftovers:
        problems.append(f"processes left running: {leftovers}")
    print(f"{name}: stopped after {seconds:.1f} s, {errors[-1] if errors else ''}")
    assert not problems, f"{name}: " + "; ".join(problems)


def test_no_recording():
    expect_one_line("no recording", demo(["/nonexistent/run.nmea"]), "demo: no recording at /nonexistent/run.nmea")


def test_port_taken():
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    try:
        expect_one_line("gpsd's port taken", demo([], {"GPSD_PORT": str(port)}),
                               f"demo: port {port} (GPSD_PORT) is taken")
    finally:
        holder.close()


def test_no_programs(tmp_path):
    work = str(tmp_path)
    expect_one_line("no programs where WEARBRIDGE_BIN says", demo([], {"WEARBRIDGE_BIN": work}),
                           f"demo: no wearbridge and wearbridge-phone in {work}")


def test_not_a_log(tmp_path):
    work = str(tmp_path)
    text = os.path.join(work, "notes.txt")
    with open(text, "w") as f:
        f.write("not a receiver's log\n")
    expect_one_line("not a log", demo([text]), "demo: gpsfake stopped",
                           contains=("zero-length packet", "gpsfake.log"))


def test_empty_log(tmp_path):
    work = str(tmp_path)
    empty = os.path.join(work, "empty.nmea")
    open(empty, "w").close()
    # gpsfake removes the receiver from gpsd once its log is played out, which for an empty log may
    # come before the deadline: gpsd then lists no receiver, and the daemon says so instead.
    expect_one_line("an empty log", demo([empty]), "demo: no fix after",
                           contains=(("no report from the receiver", "gpsd has no receiver attached"),
                                     "gpsfake.log", "daemon.log"))


def test_no_fix(tmp_path):
    work = str(tmp_path)
    log = os.path.join(work, "searching.nmea")
    with open(log, "w") as f:
        f.write(searching_receiver(600))
    expect_one_line("no fix", demo([log], {"DEMO_FIX_WITHIN": "5"}), "demo: no fix after",
                           contains=("the receiver is searching, 3 satellites seen, 0 used",
                                                       "daemon.log"))

