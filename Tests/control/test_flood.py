"""The control socket under a flood, against the real daemon: a local user opens 3000
connections, each sending a garbage line, and holds them. Checks (and prints as figures, against
the same daemon before the flood): connections the daemon holds, its RSS, journal lines written,
and `ctl status` latency during the flood. Fails if the daemon holds more than its cap, grows
more than 8 MB, writes more than a few journal lines, or status stops answering.
WEARBRIDGE_BIN picks the build (default .build/debug; the figures in docs/benchmarks.md are release)."""
import json
import os
import resource
import socket
import time

from harness import Setup, stop_all, wait_for

FLOOD = int(os.environ.get("FLOOD_CONNECTIONS", "3000"))
CAP = 32


def rss_mb(pid):
    figures = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS:", "VmHWM:")):
                figures[line.split(":")[0]] = int(line.split()[1]) / 1024
    return figures["VmRSS"], figures["VmHWM"]


def sockets_held(pid):
    held = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:"):
                held += 1
        except OSError:
            pass
    return held


def status_once(path):
    """One `status` request on a fresh connection: seconds to its reply, and the reply."""
    started = time.monotonic()
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(10)
        s.connect(path)
        s.sendall(b'{"command":"status"}\n')
        data = b""
        while not data.endswith(b"\n"):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    return time.monotonic() - started, json.loads(data)


def latencies(path, count=40, pause=0.05):
    """Status latencies (ms) and how many were answered ok."""
    times, ok = [], 0
    for _ in range(count):
        elapsed, reply = status_once(path)
        times.append(elapsed * 1000)
        ok += 1 if reply.get("ok") else 0
        time.sleep(pause)
    times.sort()
    return times, ok


def journal_lines(setup):
    return len(setup.log("wear.log").splitlines())


def test_flood_held_within_its_cap(record_property):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, FLOOD + 256)), hard))
    setup = Setup()
    with open(setup.wear_config) as f:
        # No phone, no session: the journal then holds only what the socket makes it say.
        text = f.read().split("[phone]")[0].replace("autostart = true", "autostart = false")
    with open(setup.wear_config, "w") as f:
        f.write(text)
    path = f"{setup.dir}/control.sock"
    setup.gpsfake(cycle="0.1")
    daemon = setup.wearable()
    wait_for(lambda: os.path.exists(path), 60, "the control socket")
    time.sleep(3)
    failures = []
    try:
        base_sockets = sockets_held(daemon.pid)
        base_rss, _ = rss_mb(daemon.pid)
        base_lines = journal_lines(setup)
        base_times, base_ok = latencies(path)

        flood = []
        refused = 0
        started = time.monotonic()
        for _ in range(FLOOD):
            s = socket.socket(socket.AF_UNIX)
            s.setblocking(True)
            try:
                s.connect(path)
                s.sendall(b"this is not a request\n")
                flood.append(s)
            except OSError:
                refused += 1
                s.close()
        opened = time.monotonic() - started
        time.sleep(2)
        held = sockets_held(daemon.pid) - base_sockets
        flood_times, flood_ok = latencies(path)
        flood_rss, hwm = rss_mb(daemon.pid)
        flood_lines = journal_lines(setup) - base_lines
        for s in flood:
            s.close()

        def pct(values, q):
            return values[min(len(values) - 1, int(q * len(values)))]

        figures = {
            "connections_opened": FLOOD - refused, "open_seconds": round(opened, 1),
            "connections_held": held, "cap": CAP,
            "rss_mb_before": round(base_rss, 1), "rss_mb_flood": round(flood_rss, 1),
            "vmhwm_mb": round(hwm, 1), "rss_growth_mb": round(flood_rss - base_rss, 1),
            "journal_lines_during_flood": flood_lines,
            "status_ms_before_p50_p99": [round(pct(base_times, 0.5), 1), round(pct(base_times, 0.99), 1)],
            "status_ms_flood_p50_p99": [round(pct(flood_times, 0.5), 1), round(pct(flood_times, 0.99), 1)],
            "status_p50_ratio": round(pct(flood_times, 0.5) / pct(base_times, 0.5), 2),
            "status_answered": f"{flood_ok}/{len(flood_times)} (before {base_ok}/{len(base_times)})",
        }
        print(json.dumps(figures), flush=True)
        record_property("figures", json.dumps(figures))
        if held > CAP:
            failures.append(f"the daemon holds {held} connections, more than its cap {CAP}")
        if flood_rss - base_rss > 8:
            failures.append(f"RSS grew {flood_rss - base_rss:.1f} MB under the flood")
        if flood_lines > 5:
            failures.append(f"{flood_lines} journal lines during the flood:\n" +
                            "\n".join(setup.log("wear.log").splitlines()[-10:]))
        if flood_ok != len(flood_times):
            failures.append(f"status answered {flood_ok} of {len(flood_times)} during the flood")
        if daemon.poll() is not None:
            failures.append(f"the daemon exited ({daemon.returncode})")
    finally:
        stop_all()
    assert not failures, "\n".join(failures)
