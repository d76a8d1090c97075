"""Real sound for the cue tests and the cue benchmark: a private PulseAudio (a null sink `out` whose
monitor is recorded, role ducking announce -> music, as a desktop's or a Pi's sound server is set
up), a recorder of the sink's monitor that timestamps what it hears, music, and the daemon with cues
on."""
import array
import math
import os
import signal
import socket
import sqlite3
import subprocess
import tempfile
import threading
import time
import uuid

from harness import BIN, DATA, ENV, PROCESSES, run, spawn, stop_all, wait_for  # noqa: E402,F401

RATE = 16000
# The "music": a 70 Hz tone, below a voice's fundamental, so the speech barely touches it.
MUSIC = 70
# The server's modules: the native protocol for clients, a null sink whose monitor the test records,
# and ducking: while a stream with media.role=announce plays, media.role=music drops to 30 %.
PULSE_MODULES = [
    "module-native-protocol-unix",
    "module-null-sink sink_name=out sink_properties=device.description=test-out",
    "module-role-ducking trigger_roles=announce ducking_roles=music volume=30%",
]


class Pulse:
    """A PulseAudio server of the test's own, stopped (or killed) on demand."""

    def __init__(self, directory):
        self.dir = directory
        self.env = {}

    def start(self):
        """A private server in `dir` (it runs as root in CI, with no session bus), its sink the
        default; fails within seconds, naming its log, when it does not come up."""
        runtime = os.path.join(self.dir, "xdg")
        os.makedirs(runtime, exist_ok=True)
        os.chmod(runtime, 0o700)
        self.env = {"XDG_RUNTIME_DIR": runtime, "PULSE_SERVER": f"unix:{runtime}/pulse/native"}
        env = dict(ENV, XDG_RUNTIME_DIR=runtime)
        env.pop("PULSE_SERVER", None)
        log = os.path.join(self.dir, "pulse.log")
        if subprocess.run(["pactl", "info"], env=env, capture_output=True).returncode != 0:
            args = ["pulseaudio", "-n", "--daemonize=yes", "--exit-idle-time=-1", "--disallow-exit",
                    "--use-pid-file=yes", f"--log-target=file:{log}"]
            for module in PULSE_MODULES:
                args += ["-L", module]
            subprocess.run(args, env=env, check=True, timeout=20)
            wait_for(lambda: subprocess.run(["pactl", "info"], env=env, capture_output=True).returncode == 0,
                     10, f"PulseAudio to answer (its log: {log})")
            subprocess.run(["pactl", "set-default-sink", "out"], env=env, check=True, timeout=10)
        ENV.update(self.env)
        return self

    def pid(self):
        for path in (os.path.join(self.dir, "xdg", "pulse", "pid"), os.path.join(self.dir, "pid")):
            try:
                with open(path) as f:
                    return int(f.read().split()[0])
            except (OSError, ValueError, IndexError):
                continue
        raise ValueError("no pulseaudio pid file")

    def signal(self, sig):
        os.kill(self.pid(), sig)

    def kill(self):
        pid = self.pid()
        os.kill(pid, signal.SIGKILL)
        wait_for(lambda: not os.path.exists(f"/proc/{pid}") or open(f"/proc/{pid}/stat").read().split()[2] == "Z",
                 10, "pulseaudio to die")
        for name in ("native", "pid"):
            try:
                os.unlink(os.path.join(self.dir, "xdg", "pulse", name))
            except FileNotFoundError:
                pass

    def stop(self):
        """Every server this test started from its directory (a restart makes a second one)."""
        pattern = f"log-target=file:{self.dir}/"
        subprocess.run(["pkill", "-TERM", "-f", pattern], check=False)
        deadline = time.time() + 5
        while time.time() < deadline and subprocess.run(["pgrep", "-f", pattern], capture_output=True).returncode == 0:
            time.sleep(0.1)
        subprocess.run(["pkill", "-KILL", "-f", pattern], check=False)

    def announce_streams(self):
        """Streams with media.role=announce playing now."""
        out = subprocess.run(["pactl", "list", "sink-inputs"], capture_output=True, text=True, env=ENV).stdout
        return out.count('media.role = "announce"')


class Recorder:
    """What a listener hears: `out.monitor` as 16 kHz mono, each chunk with its arrival time."""

    def __init__(self, log):
        self.process = subprocess.Popen(
            ["parec", "-d", "out.monitor", "--raw", "--format=s16le", f"--rate={RATE}", "--channels=1",
             "--latency-msec=10"], stdout=subprocess.PIPE, stderr=open(log, "ab"), env=ENV, start_new_session=True)
        PROCESSES.append(self.process)
        self.samples = array.array("h")
        self.arrivals = []  # (monotonic time the chunk arrived, index of its last sample + 1)
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        wait_for(lambda: len(self.samples) > RATE // 4, 10, "the recorder")

    def _read(self):
        fd = self.process.stdout.fileno()
        pending = b""
        while True:
            try:
                data = os.read(fd, 4096)
            except OSError:
                return
            if not data:
                return
            now = time.monotonic()
            pending += data
            usable = len(pending) - len(pending) % 2
            with self.lock:
                self.samples.frombytes(pending[:usable])
                self.arrivals.append((now, len(self.samples)))
            pending = pending[usable:]

    def now_index(self):
        with self.lock:
            return len(self.samples)

    def onset_after(self, index, threshold=800, timeout=10):
        """Arrival time of the first sample past `index` louder than `threshold`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                samples = self.samples[index:]
                arrivals = list(self.arrivals)
            for offset, value in enumerate(samples):
                if abs(value) > threshold:
                    at = index + offset
                    # The chunk holding it arrived at `t` with `end` samples: this one is (end - at) older.
                    for t, end in arrivals:
                        if end > at:
                            return t - (end - at) / RATE
            time.sleep(0.005)
        return None

    def stop(self):
        self.process.terminate()
        self.thread.join(3)


def tone(path, seconds, frequency=MUSIC, amplitude=0.5):
    run(["sox", "-n", "-r", "44100", "-c", "2", path, "synth", str(seconds), "sine", str(frequency), "vol", str(amplitude)])
    return path


def goertzel(samples, frequency):
    """Amplitude of `frequency` in `samples` (a 16 kHz window)."""
    n = len(samples)
    if n == 0:
        return 0.0
    k = 2 * math.cos(2 * math.pi * frequency / RATE)
    s1 = s2 = 0.0
    for x in samples:
        s1, s2 = x + k * s1 - s2, s1
    power = s1 * s1 + s2 * s2 - k * s1 * s2
    return 2 * math.sqrt(max(power, 0)) / n


def windows(samples, seconds=0.05, frequency=MUSIC):
    """Per window: (the music's amplitude at `frequency`, the RMS of everything else)."""
    size = int(RATE * seconds)
    result = []
    for start in range(0, len(samples) - size + 1, size):
        window = samples[start:start + size]
        music = goertzel(window, frequency)
        total = sum(x * x for x in window) / size
        rest = max(0.0, total - music * music / 2)
        result.append((music, math.sqrt(rest)))
    return result


class Wearable:
    """`wearbridge run` with cues on, no gpsd (sessions by command), reporting to its own log."""

    def __init__(self, directory, cues="", gpsd_port=1, autostart=False):
        self.dir = directory
        os.makedirs(f"{directory}/data", exist_ok=True)
        self.config = f"{directory}/wearbridge.toml"
        self.socket = f"{directory}/control.sock"
        with open(self.config, "w") as f:
            f.write(f'[gpsd]\nport = {gpsd_port}\n[storage]\ndirectory = "{directory}/data"\n'
                    f'[control]\nsocket = "{self.socket}"\n[session]\nautostart = {str(autostart).lower()}\n'
                    f'[cues]\noutput = "pulse"\n{cues}\n')
        self.log = f"{directory}/wear.log"
        self.process = spawn([f"{BIN}/wearbridge", "run", "--config", self.config], self.log)
        wait_for(lambda: os.path.exists(self.socket), 30, "the control socket")

    def ctl(self, *args, timeout=15):
        return run([f"{BIN}/wearbridge", "ctl", *args, "--socket", self.socket], timeout=timeout, check=False)

    def send(self, command):
        """One command straight on the control socket; the monotonic time it was sent."""
        with socket.socket(socket.AF_UNIX) as s:
            s.connect(self.socket)
            line = ('{"command":"%s","id":"%s"}\n' % (command, uuid.uuid4())).encode()
            sent = time.monotonic()
            s.sendall(line)
            reply = s.makefile().readline()
        return sent, reply

    def text(self):
        with open(self.log, errors="replace") as f:
            return f.read()

    def cue_events(self, kind="cue_spoken"):
        """Cue events as the journal logged them (in or out of a session)."""
        return [line for line in self.text().splitlines() if f"event={kind}" in line]

    def stored(self, sql):
        db = sqlite3.connect(f"file:{self.dir}/data/wearbridge.sqlite?mode=ro", uri=True, timeout=10)
        try:
            return db.execute(sql).fetchall()
        finally:
            db.close()


def scratch(name):
    return tempfile.mkdtemp(prefix=f"wb-cues-{name}-")
