"""Two runners in two places as real processes: for each, a gpsd fed by gpsfake at the recording's own
pace (its GPS time moved to the race, with a still pre-roll so that the wearable has a fix before
the countdown), a `wearbridge run` with cues on (ALSA's file plugin: no sound server needed) and a
`wearbridge-phone run` with [relay]. Shared by the relay's end-to-end test and scripts/demo-race.sh."""
import datetime
import json
import os
import sqlite3
import time

import harness

GPS = os.path.join(harness.DATA, "gps")
# From gpsfake's start to its first sentence reaching gpsd (s): the recording's GPS time then
# matches this machine's clock, as a receiver's does outdoors.
GPSFAKE_LATENCY = 0.5
KNOT = 1852 / 3600


def sleep_until(moment):
    import time
    time.sleep(max(0.0, moment - time.time()))


def epochs(path):
    """The recording's sentences grouped by epoch (a time-stamped sentence opens a new one)."""
    groups, current, stamp = [], [], None
    for line in open(path).read().splitlines():
        if not line.startswith("$"):
            continue
        fields = line[1:line.index("*") if "*" in line else len(line)].split(",")
        kind = fields[0][2:]
        time_field = fields[1] if kind in ("RMC", "GGA", "GST") else None
        if time_field and time_field != stamp:
            if current:
                groups.append(current)
            current, stamp = [], time_field
        # A recording's repeated epoch (a receiver's duplicate) would cost gpsfake a second of pace.
        if fields not in current:
            current.append(fields)
    if current:
        groups.append(current)
    return groups


def _sentence(fields):
    body = ",".join(fields)
    checksum = 0
    for char in body:
        checksum ^= ord(char)
    return f"${body}*{checksum:02X}"


def _stamp(fields, moment):
    """A sentence with its time (and an RMC's date) set to `moment`."""
    fields = list(fields)
    kind = fields[0][2:]
    if kind in ("RMC", "GGA", "GST") and fields[1]:
        fields[1] = moment.strftime("%H%M%S.") + f"{moment.microsecond // 10000:02d}"
        if kind == "RMC":
            fields[9] = moment.strftime("%d%m%y")
    return fields


def _searching(fields):
    """A sentence as a receiver still searching sends it: no position, no fix (and still a sentence,
    so that the epoch keeps its length and gpsfake its pace)."""
    fields = list(fields)
    kind = fields[0][2:]
    if kind == "RMC":
        fields[2], fields[3:7], fields[7:9] = "V", ["", "", "", ""], ["", ""]
        if len(fields) > 12:
            fields[12] = "N"
    elif kind == "GGA":
        fields[2:7], fields[7:10] = ["", "", "", "", "0"], ["00", "", ""]
    elif kind == "GSA":
        fields[2], fields[3:15] = "1", [""] * 12
    elif kind == "GST":
        fields[2:] = [""] * (len(fields) - 2)
    return fields


def race_recording(source, target, start_at, skip=0, preroll=45, cold=0):
    """`source` from its epoch `skip` on, epoch `skip` at `start_at` (Unix s), after `preroll` still
    epochs at that first position (speed 0): what a runner standing at the start line sends. The
    first `cold` of those have no fix yet (a receiver just switched on, still searching).
    Every epoch is padded to the same number of sentences (its GSA again), so that gpsfake's delay
    per sentence keeps one epoch a second. Returns (sentences per epoch, the Doppler profile: metres
    run by each second after the start)."""
    groups = epochs(source)[skip:]
    size = max(len(group) for group in groups)
    groups = [group + [group[-1]] * (size - len(group)) for group in groups]
    out = []
    first = groups[0]
    for second in range(preroll, 0, -1):
        moment = datetime.datetime.fromtimestamp(start_at - second, datetime.timezone.utc)
        for fields in first:
            fields = _stamp(fields, moment)
            if fields[0].endswith("RMC"):
                fields[7] = "0.000"
            if preroll - second < cold:
                fields = _searching(fields)
            out.append(_sentence(fields))
    profile, distance = [], 0.0
    for index, group in enumerate(groups):
        moment = datetime.datetime.fromtimestamp(start_at + index, datetime.timezone.utc)
        for fields in group:
            if fields[0].endswith("RMC") and fields[2] == "A" and index > 0:
                distance += float(fields[7] or 0) * KNOT
            out.append(_sentence(_stamp(fields, moment)))
        profile.append(distance)
    with open(target, "w") as f:
        f.write("\r\n".join(out) + "\r\n")
    return size, profile


def course(alice, bob):
    """The race the test and the demo run: Alice stands 10 s at the start of her track session,
    then runs; Bob runs, stops for a minute (his wearable auto-pauses) and goes again."""
    return [(alice, os.path.join(GPS, "track_3k_laps.nmea"), 0), (bob, os.path.join(GPS, "park_loop_run.nmea"), 820)]


def set_off(start_at, legs):
    """Each (runner, recording, skip) of `legs`: the recording moved to the race after a still
    pre-roll from about now, gpsfake started so that its GPS time is this machine's clock, then the
    runner's phone and wearable."""
    import time
    preroll = int(start_at - time.time()) - 2
    for runner, source, skip in legs:
        runner.prepare(source, start_at, skip=skip, preroll=preroll)
    sleep_until(start_at - preroll - GPSFAKE_LATENCY)
    for runner, _, _ in legs:
        runner.run_gps()
        runner.start()


def lead_changes(mine, theirs, margin, hold):
    """Where the lead changes by the recordings' own Doppler, judged like the wearable (margin,
    hold): [(second since the start, 'me' or 'partner')]."""
    changes, leader, pending = [], None, None
    for second in range(min(len(mine), len(theirs))):
        gap = mine[second] - theirs[second]
        side = "me" if gap > margin else "partner" if gap < -margin else None
        if side is None or side == leader:
            pending = None
            continue
        if pending is None or pending[0] != side:
            pending = (side, second)
        if second - pending[1] >= hold:
            leader, pending = side, None
            changes.append((second, side))
    return changes


class Runner:
    """One runner: a wearable (cues on) and a phone with [relay], in a harness.Setup's directory."""

    def __init__(self, relay, name, relay_port=None):
        """`relay_port`: where the phone dials the relay (a fault proxy's port, say)."""
        self.name = name
        self.setup = harness.Setup()
        tls = relay.tls
        port = relay_port or relay.port
        # Each phone's dashboard on a port of its own (two phones share this machine).
        self.dashboard = f"http://127.0.0.1:{harness.free_port()}"
        self.setup.write_phone_config(extra=f'[relay]\nhost = "localhost"\nport = {port}\nrunner = "{name}"\n'
                                            f'ca = "{tls}/ca.crt"\ncertificate = "{tls}/{name}.crt"\n'
                                            f'key = "{tls}/{name}.key"\n'
                                            f'[dashboard]\nport = {self.dashboard.rsplit(":", 1)[1]}\n')
        s = self.setup
        self.heard = os.path.join(s.dir, "heard.raw")
        with open(s.wear_config, "w") as f:
            f.write(f'[gpsd]\nhost = "127.0.0.1"\nport = {s.gpsd_port}\n[storage]\ndirectory = "{s.wear_dir}"\n'
                    f'[control]\nsocket = "{s.dir}/control.sock"\n[session]\nautostart = false\n'
                    f'[cues]\nenabled = true\noutput = "alsa"\nalsa_device = "file:\'{self.heard}\',raw"\n'
                    f'kinds = ["lifecycle", "race", "auto_pause"]\n'
                    f'[phone]\naddress = "127.0.0.1"\nport = {s.phone_port}\n'
                    f'certificate = "{s.phone_dir}/identity.crt.pem"\nname = "pi"\n')
        self.phone = self.wearable = self.gps = None
        self.profile, self.per_epoch = [], 1

    def prepare(self, source, start_at, skip=0, preroll=45):
        self.recording = os.path.join(self.setup.dir, "race.nmea")
        self.per_epoch, self.profile = race_recording(source, self.recording, start_at, skip, preroll)

    def start(self):
        """The phone and the wearable."""
        self.phone = self.setup.phone()
        self.wearable = self.setup.wearable()

    def run_alone(self, source, start_at):
        """Her recording moved to the race's start, gpsfake playing it, the wearable up with a fix."""
        self.prepare(source, start_at, preroll=int(start_at - time.time()) - 1)
        self.run_gps()
        self.wearable = self.setup.wearable()
        harness.wait_for(lambda: '"mode":3' in harness.run(
            [f"{harness.BIN}/wearbridge", "ctl", "status", "--json", "--config", self.setup.wear_config],
            check=False).stdout.replace(" ", ""), 15, "a fix on the wearable")

    def run_gps(self):
        self.gps = self.setup.gpsfake(cycle=f"{1 / self.per_epoch:.4f}", recording=self.recording)

    def events(self, *kinds):
        """(kind, GPS time, detail) of the wearable's logged events of these kinds, in order."""
        marks = ",".join("?" * len(kinds))
        db = sqlite3.connect(f"file:{self.setup.wear_dir}/wearbridge.sqlite?mode=ro", uri=True, timeout=10)
        try:
            rows = db.execute(f"SELECT kind, time, detail FROM event WHERE kind IN ({marks}) ORDER BY session_id, seq",
                              kinds).fetchall()
        finally:
            db.close()
        return [(k, t, json.loads(d) if d else {}) for (k, t, d) in rows]

    def commands(self, kind):
        """The wearable's command rows of `kind` (its ledger), in the order they were applied."""
        db = sqlite3.connect(f"file:{self.setup.wear_dir}/wearbridge.sqlite?mode=ro", uri=True, timeout=10)
        try:
            return db.execute("SELECT id, accepted FROM command WHERE command = ? ORDER BY rowid",
                              (kind,)).fetchall()
        finally:
            db.close()

    def journal(self, event):
        """The wearable's journal lines (its log) naming `event`."""
        return [line for line in self.setup.log("wear.log").splitlines() if f"event={event}" in line]

    def spoken(self):
        """The texts the wearable's cues spoke, from its journal."""
        texts = []
        for line in self.journal("cue_spoken"):
            if "text=" in line:
                texts.append(line.split("text=", 1)[1].strip())  # the last key: the rest of the line
        return texts
