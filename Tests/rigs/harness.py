"""The Python rig the suites and scripts share: real `wearbridge run` and `wearbridge-phone run`
processes over real TLS sockets, gpsfake feeding a real gpsd, a fault proxy, and Python stubs
generated at test time from proto/wearbridge/link/v1/link.proto (grpcio-tools)."""
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("WEARBRIDGE_BIN", os.path.join(ROOT, ".build", "debug"))
# The recordings the tests replay, carried in the repository (data/README.md).
DATA = os.path.join(ROOT, "data")
RECORDING = os.path.join(DATA, "gps", "park_loop_run.nmea")
# Where the browser tests leave their screenshots (DASHBOARD_SHOTS overrides), beside the run's reports.
SCREENSHOTS = os.path.join(ROOT, ".build", "test-results", "screenshots")
ENV = dict(os.environ)
ENV.setdefault("WEARBRIDGE_TEST_RUN", "phone-link")
PROCESSES = []


def rows(path, sql, args=()):
    """A query's rows from an SQLite file opened read-only, as a test reads a live data log beside its writer."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
    try:
        return db.execute(sql, args).fetchall()
    finally:
        db.close()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def spawn(args, log, **kwargs):
    """A process in its own group, logged to `log`, stopped at exit whatever happens."""
    out = open(log, "ab")
    process = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, env=ENV, start_new_session=True, **kwargs)
    PROCESSES.append(process)
    return process


def stop_all(since=0):
    """Every process spawn() started (since the `since`-th), its group ended: SIGTERM, then SIGKILL
    after 3 s."""
    stopping = PROCESSES[since:]
    del PROCESSES[since:]
    for process in stopping:
        if process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
    deadline = time.time() + 3
    for process in stopping:
        try:
            process.wait(max(0.1, deadline - time.time()))
        except subprocess.TimeoutExpired:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait()


def kill9(process):
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def run(args, timeout=60, check=True):
    result = subprocess.run(args, capture_output=True, text=True, env=ENV, timeout=timeout)
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(args)} exited {result.returncode}: {result.stdout}{result.stderr}")
    return result


def proc_figures(pid, children=False):
    """A process's CPU seconds so far (user + system) and its peak RSS (VmHWM) in MB, from /proc.

    `children`: the CPU seconds of the children it has waited for (cutime + cstime) instead: work
    it moved out of the process (espeak-ng, aplay) is still its work."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    first = 13 if children else 11
    cpu = (int(fields[first]) + int(fields[first + 1])) / ticks
    hwm = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                hwm = int(line.split()[1]) / 1024
    return cpu, hwm


# A wait's timeout is what the awaited thing takes on an idle machine, with room; the guard against
# a hang is GUARD times it, since the phases run side by side on two cores beside builds and emulated
# guests, and a wait that ends when its event comes costs nothing more for a larger guard. How soon
# something happens is a figure for a benchmark, never a test's deadline.
GUARD = float(os.environ.get("WEARBRIDGE_GUARD", "4"))


def wait_for(predicate, timeout, what, every=0.2):
    """The predicate's first true value, asked every `every` s; fails after GUARD x `timeout` s."""
    timeout = timeout * GUARD
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def write_gpx_track(path, name, points):
    """A GPX 1.1 track named `name` of `points` [(lat, lon)]: a course file as a phone user has one."""
    with open(path, "w") as f:
        f.write('<?xml version="1.0"?>\n<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">'
                f'<trk><name>{name}</name><trkseg>\n')
        f.writelines(f'<trkpt lat="{lat:.7f}" lon="{lon:.7f}"/>\n' for lat, lon in points)
        f.write("</trkseg></trk></gpx>\n")
    return len(points)


def generate_stubs(directory):
    """Python stubs from the same .proto a phone app would use: the contract without our code."""
    from grpc_tools import protoc
    proto = os.path.join(ROOT, "proto")
    code = protoc.main(["protoc", f"-I{proto}", f"--python_out={directory}", f"--grpc_python_out={directory}",
                        os.path.join(proto, "wearbridge", "link", "v1", "link.proto")])
    assert code == 0, "grpc_tools.protoc failed"
    sys.path.insert(0, directory)


class Setup:
    """A wearable and a phone that pin each other, with configs, in a fresh directory."""

    def __init__(self, phone_host="127.0.0.1", listen="127.0.0.1"):
        self.dir = tempfile.mkdtemp(prefix="wearbridge-phone-e2e-")
        self.wear_dir = os.path.join(self.dir, "wear")
        self.phone_dir = os.path.join(self.dir, "phone")
        os.makedirs(self.wear_dir)
        os.makedirs(self.phone_dir)
        self.gpsd_port = free_port()
        self.phone_port = free_port()
        self.listen = listen
        self.phone_host = phone_host
        self.dial_port = self.phone_port
        run([f"{BIN}/wearbridge", "identity", "--storage", self.wear_dir, "--name", "pi"])
        self.write_phone_config()
        run([f"{BIN}/wearbridge-phone", "identity", "--config", self.phone_config])
        self.write_wear_config()

    def write_phone_config(self, extra=""):
        self.phone_config = os.path.join(self.dir, "phone.toml")
        with open(self.phone_config, "w") as f:
            f.write(f"""[server]\nlisten = "{self.listen}"\nport = {self.phone_port}\n[storage]\ndirectory = "{self.phone_dir}"\n
[commands]\nretry_every = 2\ndeadline = 60\nvalid_for = 60\n
[[wearable]]\nname = "pi"\ncertificate = "{self.wear_dir}/identity.crt.pem"\n{extra}""")

    def write_wear_config(self, dial_port=None):
        self.dial_port = dial_port or self.phone_port
        self.wear_config = os.path.join(self.dir, "wear.toml")
        with open(self.wear_config, "w") as f:
            f.write(f"""[gpsd]\nhost = "127.0.0.1"\nport = {self.gpsd_port}\n[storage]\ndirectory = "{self.wear_dir}"\n
[control]\nsocket = "{self.dir}/control.sock"\n[session]\nautostart = true\n[cues]\nenabled = false\n
[phone]\naddress = "{self.phone_host}"\nport = {self.dial_port}\ncertificate = "{self.phone_dir}/identity.crt.pem"\nname = "pi"\n""")

    def gpsfake(self, cycle="0.05", recording=RECORDING):
        return spawn(["gpsfake", "-1", "-q", "-W", "900", "-c", cycle, "-P", str(self.gpsd_port), recording],
                     os.path.join(self.dir, "gpsfake.log"))

    def wearable(self, prefix=()):
        return spawn(list(prefix) + [f"{BIN}/wearbridge", "run", "--config", self.wear_config],
                     os.path.join(self.dir, "wear.log"))

    def phone(self, prefix=()):
        return spawn(list(prefix) + [f"{BIN}/wearbridge-phone", "run", "--config", self.phone_config],
                     os.path.join(self.dir, "phone.log"))

    def log(self, name):
        with open(os.path.join(self.dir, name), errors="replace") as f:
            return f.read()

    # What each side holds, read from its own SQLite file.
    def outbox(self):
        db = sqlite3.connect(f"file:{self.wear_dir}/wearbridge.sqlite?mode=ro", uri=True, timeout=10)
        try:
            return db.execute("SELECT seq, class, kind, state FROM outbox ORDER BY seq").fetchall()
        finally:
            db.close()

    def inbox(self):
        path = f"{self.phone_dir}/wearbridge-phone.sqlite"
        if not os.path.exists(path):
            return []
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
        try:
            return db.execute("SELECT seq, class, kind FROM inbox WHERE wearable = 'pi' ORDER BY seq").fetchall()
        except sqlite3.OperationalError:
            return []
        finally:
            db.close()

    def wear_query(self, sql):
        db = sqlite3.connect(f"file:{self.wear_dir}/wearbridge.sqlite?mode=ro", uri=True, timeout=10)
        try:
            return db.execute(sql).fetchall()
        finally:
            db.close()

    def delivered_everything(self):
        rows = self.outbox()
        return rows and all(state == "delivered" for (_, cls, _, state) in rows if cls != "snapshot")

    def check_inbox_equals_outbox(self):
        """The check every fault test ends with: critical and notice messages, each once, in order."""
        wanted = [(seq, cls, kind) for (seq, cls, kind, _) in self.outbox() if cls != "snapshot"]
        got = self.inbox()
        seqs = [seq for (seq, _, _) in got]
        assert len(seqs) == len(set(seqs)), "a message stored twice"
        assert seqs == sorted(seqs), "out of order"
        assert got == wanted, f"inbox != outbox\nmissing {sorted(set(wanted) - set(got))[:10]}\nextra {sorted(set(got) - set(wanted))[:10]}"
        return len(got)


class FaultProxy:
    """A TCP proxy between the wearable and the phone that can cut connections mid-frame, stall
    them, or blackhole them; and add delay."""

    def __init__(self, target_port):
        self.target = ("127.0.0.1", target_port)
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.mode = "pass"
        self.delay = 0.0
        self.lock = threading.Lock()
        self.pairs = []
        self.cuts = 0
        # Bytes forwarded: towards the phone, and back.
        self.bytes_up = 0
        self.bytes_down = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.mode == "blackhole":
                with self.lock:
                    self.pairs.append((client, None))
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            # The timeout was for the connect: a connection idle for a while (a LISTEN waiting for
            # news) is not a fault of the proxy's.
            upstream.settimeout(None)
            with self.lock:
                self.pairs.append((client, upstream))
            for a, b, up in ((client, upstream, True), (upstream, client, False)):
                threading.Thread(target=self._pump, args=(a, b, up), daemon=True).start()

    def _pump(self, source, sink, up=True):
        try:
            while True:
                data = source.recv(4096)
                if not data:
                    break
                while self.mode in ("stall", "blackhole"):
                    time.sleep(0.05)
                if self.delay:
                    time.sleep(self.delay)
                if self.mode == "cut-mid-frame" and len(data) > 1:
                    sink.sendall(data[: len(data) // 2])
                    break
                sink.sendall(data)
                if up:
                    self.bytes_up += len(data)
                else:
                    self.bytes_down += len(data)
        except OSError:
            pass
        # Shut down before closing: a close alone neither wakes the other direction's thread, blocked
        # in recv on the same socket, nor tells the peer (the kernel keeps a socket a blocked call
        # holds), and the peer would wait on a connection nobody forwards any more.
        for s in (source, sink):
            self._end(s)

    @staticmethod
    def _end(s):
        """A socket shut down, then closed, whatever state it is in."""
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        try:
            s.close()
        except OSError:
            pass

    def cut(self):
        """Every connection closed now (some mid-frame)."""
        self.cuts += 1
        with self.lock:
            pairs, self.pairs = self.pairs, []
        for pair in pairs:
            for s in pair:
                if s is not None:
                    self._end(s)
