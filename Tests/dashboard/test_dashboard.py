"""The field dashboard end to end, in a real browser: Debian's chromium driven by chromedriver through
python3-selenium, against real processes (a wearable fed by gpsfake through a real gpsd, the phone,
its dashboard). Checks the figures against `wearbridge ctl status`, the link strip through a frozen
and a killed wearable (no reload), commands (pending then ACK, one per id, a double click applied
once, a FAIL with its reason while the link is down), resuming after a phone restart with
Last-Event-ID, a history download read back by the export tests' parsers, access beyond loopback,
bad requests, and schemathesis fuzzing the API from its OpenAPI document. Screenshots go to
$DASHBOARD_SHOTS (default: .build/test-results/screenshots)."""
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error

import pytest

import harness
from browser import By, http
from dashboard import Dashboard

BIN = harness.BIN
# The page's tests share one wearable, phone and browser, which a test may restart for the next.
SHARED_RIG = True


@pytest.fixture(scope="module")
def d():
    """One wearable, phone and browser for the page's tests, which run in this file's order (the
    session is ended by the history's test, before the fuzz, whose valid commands may end it first)."""
    dashboard = Dashboard()
    try:
        yield dashboard
    finally:
        dashboard.close()
        harness.stop_all()


def test_figures_equal_ctl_status(d):
    """The page's figures equal `ctl status` within one update (the snapshot comes once a second)."""
    harness.wait_for(lambda: float(d.js("return document.getElementById('t-distance').dataset.value || 0")) > 50,
                     90, "the page to show distance")
    for _ in range(3):
        before = d.js("return [Number(document.getElementById('t-distance').dataset.value),"
                      " Number(document.getElementById('t-elapsed').dataset.value)]")
        status = d.ctl_status()
        after = d.js("return [Number(document.getElementById('t-distance').dataset.value),"
                     " Number(document.getElementById('t-elapsed').dataset.value)]")
        distance, elapsed = status["status"]["distance_m"], status["status"]["elapsed_s"]
        # One update: a second of running (under 10 m here) and one second of time.
        assert before[0] - 10 <= distance <= after[0] + 10, f"distance page {before[0]}..{after[0]} vs ctl {distance}"
        assert before[1] - 2 <= elapsed <= after[1] + 2, f"elapsed page {before[1]}..{after[1]} vs ctl {elapsed}"
        time.sleep(1)
    value, shown = d.js("return [Number(document.getElementById('t-distance').dataset.value),"
                        " document.getElementById('v-distance').textContent]")
    assert shown == f"{value / 1000:.2f}", f"distance tile shows {shown!r} for {value} m"
    return f"distance {distance:.1f} m, elapsed {elapsed:.0f} s within one update"


def test_screenshots_of_the_live_page(d):
    return ", ".join(os.path.basename(d.shot("live", w, h)) for (w, h) in ((412, 892), (1280, 800)))


def test_commands_pending_then_ack_once_per_id(d):
    """Pause: pending, then ACK, exactly one pause with that id in the data log; a double click on
    resume applied once."""
    state, pause_id = d.click_command("pause")
    assert state == "pending", f"pause showed {state} right after the click"
    state, answered_id = d.wait_command("pause")
    assert state == "ack" and answered_id == pause_id, f"pause: {state} {answered_id}"
    rows = d.wear_rows("SELECT command, accepted FROM command WHERE id = ?", (pause_id,))
    assert rows == [("pause", 1)], f"the data log holds {rows} for {pause_id}"
    harness.wait_for(lambda: d.link_state() == "paused", 10, "the strip to say paused")
    resumes_before = d.wear_rows("SELECT count(*) FROM event WHERE kind = 'resumed'")[0][0]
    ids = d.js("""
        const b = document.querySelector('[data-command="resume"]');
        b.disabled = false; b.click(); const first = b.dataset.commandId;
        b.disabled = false; b.click(); return [first, b.dataset.commandId];""")
    assert ids[0] == ids[1], f"a double click made two ids {ids}"
    state, _ = d.wait_command("resume")
    assert state == "ack", f"resume: {state}"
    # The same id once more, as a retry from another tab would send it: the standing, nothing new.
    status, body, _ = http(d.base + "/api/wearables/pi/commands", "POST",
                           json.dumps({"id": ids[0], "kind": "resume"}).encode(), {"Content-Type": "application/json"})
    assert status == 200 and body["state"] == "ack", f"the retry: {status} {body}"
    time.sleep(2)
    rows = d.wear_rows("SELECT command FROM command WHERE id = ?", (ids[0],))
    resumes = d.wear_rows("SELECT count(*) FROM event WHERE kind = 'resumed'")[0][0]
    assert rows == [("resume",)] and resumes == resumes_before + 1, f"resume applied {resumes - resumes_before} times"
    return f"pause {pause_id[:13]}… pending then ACK; double click = one resume"


def test_phone_restart_resumes_with_last_event_id(d):
    """The phone stops; the wearable pauses and resumes meanwhile; the page resumes its stream by
    itself (Last-Event-ID) and shows exactly the messages the inbox holds, each once, in order."""
    marker = d.js("return window.__wbMarker = window.__wbMarker || Math.random()")
    count = lambda kind: d.phone_rows("SELECT count(*) FROM inbox WHERE kind = ?", (kind,))[0][0]
    paused, resumed = count("session_paused"), count("session_resumed")
    d.phone_process.send_signal(signal.SIGTERM)
    d.phone_process.wait(15)
    for verb in ("pause", "resume"):
        harness.run([f"{BIN}/wearbridge", "ctl", verb, "--config", d.setup.wear_config])
    d.phone_process = d.setup.phone()
    harness.wait_for(lambda: count("session_paused") > paused and count("session_resumed") > resumed, 60,
                     "the pause and resume made while the phone was down to arrive")
    inbox_seqs = lambda: [seq for (seq,) in d.phone_rows("SELECT seq FROM inbox WHERE wearable = 'pi' ORDER BY seq")]
    first = d.js("return window.__wb.seqs[0]")
    harness.wait_for(lambda: d.js("return window.__wb.seqs") == [s for s in inbox_seqs() if s >= first], 60,
                     "the page to show every message after the restart")
    assert d.js("return window.__wbMarker") == marker, "the page was reloaded"
    harness.wait_for(lambda: d.link_state() == "live", 30, "live again")
    return f"{len(d.js('return window.__wb.seqs'))} messages, none missed or doubled, no reload"


def test_phone_killed_unreachable_then_back(d):
    """The phone frozen, then killed -9: within seconds the strip says the phone is unreachable with the age,
    never the wearable's last-known "live"; the command buttons are disabled with that reason and
    the tiles grey. Started again, the strip is back to the wearable's truth with no reload."""
    marker = d.js("return window.__wbMarker = window.__wbMarker || Math.random()")
    harness.wait_for(lambda: d.link_state() == "live", 30, "live before the kill")
    # Frozen first: the stream stays open but silent, so only the page's own clock can tell.
    d.phone_process.send_signal(signal.SIGSTOP)
    frozen = time.time()
    try:
        harness.wait_for(lambda: d.link_state() == "phone unreachable", 15, "unreachable while the phone is frozen")
        silent = time.time() - frozen
    finally:
        d.phone_process.send_signal(signal.SIGCONT)
    harness.wait_for(lambda: d.link_state() == "live", 30, "live when the phone thaws")
    d.phone_process.kill()
    d.phone_process.wait(15)
    killed = time.time()
    seen = []
    harness.wait_for(lambda: seen.append(d.link_state()) or d.link_state() == "phone unreachable", 15,
                     "the strip to say the phone is unreachable")
    told = time.time() - killed
    assert "live" not in seen[1:], f"the strip said live after the kill: {seen}"
    time.sleep(2)
    age = d.text("link-age")
    assert d.link_state() == "phone unreachable" and "nothing from it for" in age, (d.link_state(), age)
    assert d.js("return [...document.querySelectorAll('[data-command]')].every((b) => b.disabled)"), \
        "a command button is enabled while the phone is unreachable"
    note = d.text("command-note")
    assert "phone is unreachable" in note, f"no reason shown: {note!r}"
    assert d.js("return document.getElementById('t-distance').classList.contains('stale')"), \
        "the distance tile is not greyed while the phone is unreachable"
    d.shot("phone-unreachable", 412, 892)
    d.phone_process = d.setup.phone()
    harness.wait_for(lambda: d.link_state() == "live", 60, "live again after the phone's restart")
    harness.wait_for(lambda: not d.js("return document.querySelector('[data-command=\"pause\"]').disabled"), 15,
                     "the commands enabled again")
    assert d.js("return window.__wbMarker") == marker, "the page was reloaded"
    return (f"frozen (SIGSTOP): 'phone unreachable' after {silent:.1f} s of silence; killed -9: after {told:.1f} s "
            f"({age}); buttons disabled with the reason; live again both times")


def test_link_strip_stale_lost_live(d):
    """A frozen wearable goes stale then lost; a command then shows FAIL with the reason; killed and
    started again, the strip is live with no reload."""
    marker = d.js("return window.__wbMarker = window.__wbMarker || Math.random()")
    seen = []
    os.killpg(d.wearable_process.pid, signal.SIGSTOP)
    try:
        try:
            harness.wait_for(lambda: seen.append(d.link_state()) or d.link_state() == "lost", 40, "lost")
        except AssertionError:
            raise AssertionError(f"never lost: the strip said {sorted(set(seen))}")
        assert "stale" in seen, f"the strip went {sorted(set(seen))} but never stale"
        assert d.js("return document.querySelector('[data-command=\"pause\"]').disabled"), "pause enabled while lost"
        note = d.text("command-note")
        assert "unavailable" in note, f"no reason shown: {note!r}"
        # A click that gets through anyway (a stale page, a script): refused with the reason.
        d.js("const b = document.querySelector('[data-command=\"pause\"]'); b.disabled = false; b.click();")
        state, _ = d.wait_command("pause", ("fail",), 15)
        note = d.text("command-note")
        assert "FAIL" in note and ("not connected" in note or "nothing heard" in note), note
        grey = d.js("return document.getElementById('t-distance').classList.contains('stale')")
        assert grey, "the distance tile is not greyed while lost"
    finally:
        for sig in (signal.SIGKILL, signal.SIGCONT):
            try:
                os.killpg(d.wearable_process.pid, sig)
            except ProcessLookupError:
                pass
        d.wearable_process.wait()
        d.wearable_process = d.setup.wearable()  # also after a failure: the next steps need it
    harness.wait_for(lambda: d.link_state() in ("live", "paused"), 60, "live after the wearable's restart")
    harness.wait_for(lambda: not d.js("return document.getElementById('t-distance').classList.contains('stale')"),
                     30, "the distance tile fresh again")
    assert d.js("return window.__wbMarker") == marker, "the page was reloaded"
    return f"strip went {' > '.join(dict.fromkeys(seen))} > live; FAIL reason shown"


def test_bad_requests_and_a_flood(d):
    """Clear errors, and the link goes on."""
    post = lambda path, body, headers=None: http(d.base + path, "POST", body, headers or {"Content-Type": "application/json"})
    cases = [
        ("oversized body", post("/api/wearables/pi/commands", b"{" + b" " * 10000 + b"}"), 413),
        ("unknown wearable", http(d.base + "/api/wearables/nobody"), 404),
        ("malformed id", post("/api/wearables/pi/commands", json.dumps({"id": "x'; drop", "kind": "pause"}).encode()), 400),
        ("unknown kind", post("/api/wearables/pi/commands", json.dumps({"id": "abcdefgh1", "kind": "explode"}).encode()), 400),
        ("not JSON", post("/api/wearables/pi/commands", b"\xff\xfe garbage"), 400),
        ("bad Last-Event-ID", http(d.base + "/api/wearables/pi/events", headers={"Last-Event-ID": "-5"}), 400),
        ("cross-origin POST", post("/api/wearables/pi/commands", json.dumps({"id": "abcdefgh2", "kind": "pause"}).encode(),
                                   {"Content-Type": "application/json", "Origin": "http://evil.example"}), 403),
        ("unknown export format", http(d.base + "/api/sessions/x/export/pdf"), 400),
    ]
    for name, (status, body, _), wanted in cases:
        assert status == wanted, f"{name}: {status} {body}"
        assert isinstance(body, dict) and body.get("message"), f"{name}: no message in {body!r}"
    # A flood: more open streams than max_streams (8, the page holds one): the rest get 503.
    sockets, statuses = [], []
    for _ in range(10):
        s = socket.create_connection(("127.0.0.1", d.port))
        s.sendall(b"GET /api/wearables/pi/events HTTP/1.1\r\nHost: x\r\n\r\n")
        sockets.append(s)
    for s in sockets:
        s.settimeout(5)
        statuses.append(s.recv(64).split(b" ")[1].decode())
    for s in sockets:
        s.close()
    assert statuses.count("503") >= 2 and statuses.count("200") >= 6, statuses
    harness.wait_for(lambda: http(d.base + "/api/health")[1]["open_streams"] <= 2, 20, "the flood's streams to close")
    assert d.link_state() in ("live", "paused"), d.link_state()
    return f"{len(cases)} bad requests answered 4xx with a message; flood {statuses.count('503')}x 503"


def recording_gpx(path, name):
    """The recording's own line as a GPX track (its RMC positions): a course the wearer is on."""
    points = []
    with open(harness.RECORDING) as f:
        for line in f:
            fields = line.split(",")
            if fields[0].endswith("RMC") and fields[2] == "A":
                lat = int(fields[3][:2]) + float(fields[3][2:]) / 60
                lon = int(fields[5][:3]) + float(fields[5][3:]) / 60
                points.append((lat if fields[4] == "N" else -lat, lon if fields[6] == "E" else -lon))
    return harness.write_gpx_track(path, name, points)


def test_courses_added_sent_followed_removed(d):
    """Courses from the page: a GPX added through the file input, sent to the wearable (every part
    answered), a session started on it from the page, the course drawn under the track with its To go
    tile in the browser; a second course added, sent and removed from both; a file that is no course
    refused with its reason."""
    gpx = os.path.join(d.setup.dir, "park.gpx")
    file_points = recording_gpx(gpx, "Park loop")

    def add(path, name=""):
        d.js("document.getElementById('course-note').textContent = ''")
        d.driver.find_element(By.ID, "course-file").send_keys(path)
        d.js("document.getElementById('course-name').value = arguments[0]", name)
        d.js("document.getElementById('course-add').requestSubmit()")
        return harness.wait_for(lambda: d.text("course-note") if d.text("course-note").startswith(("added", "not"))
                                else None, 30, f"{path} to be added")

    added = add(gpx)
    assert added.startswith("added Park loop: ") and f"of {file_points}" in added, added
    harness.wait_for(lambda: d.js("return !!document.querySelector('li[data-course=\"Park loop\"]')"), 10,
                     "the course listed")

    def send(name):
        d.js(f"document.querySelector('li[data-course=\"{name}\"] [data-course-action=\"send\"]').click()")
        return harness.wait_for(lambda: d.text("course-note") if d.text("course-note").startswith(("sent", f"{name} not"))
                                else None, 60, f"{name} to reach the wearable")

    sent = send("Park loop")
    assert sent.startswith("sent Park loop in ") and 'course "Park loop" kept' in sent, sent
    assert d.wear_rows("SELECT name FROM course") == [("Park loop",)]
    # A new session on the course, from the page: the wearable restarted without autostart (which
    # would begin a session of its own the moment the one under way ends), that session ended first.
    with open(d.setup.wear_config) as f:
        config = f.read().replace("autostart = true", "autostart = false")
    with open(d.setup.wear_config, "w") as f:
        f.write(config)
    os.killpg(d.wearable_process.pid, signal.SIGTERM)
    d.wearable_process.wait(20)
    d.wearable_process = d.setup.wearable()
    def link():
        out = harness.run([f"{BIN}/wearbridge", "ctl", "status", "--json", "--config", d.setup.wear_config],
                          check=False)
        return out.returncode == 0 and (json.loads(out.stdout)["status"].get("phone_link") or {}).get("state") == "live"
    harness.wait_for(link, 30, "the restarted wearable's link")

    def ended():
        # The page's strip may lag the reconnection: a refusal for the link is tried again.
        d.click_command("end")
        state, _ = d.wait_command("end", timeout=60)
        return state == "ack" or (time.sleep(1) if state == "fail" else None)
    harness.wait_for(ended, 30, "the session under way to end")
    d.js("document.getElementById('start-course').value = 'Park loop'")
    _, start_id = d.click_command("start")
    state, _ = d.wait_command("start", timeout=60)
    assert state == "ack", f"start on the course: {state}"
    session = d.wear_rows("SELECT session_id FROM command WHERE id = ?", (start_id,))[0][0]
    following = d.wear_rows("SELECT detail FROM event WHERE session_id = ? AND kind = 'course_following'", (session,))
    assert len(following) == 1 and "Park loop" in following[0][0], following
    # In the browser: the course under the track, and the distance to go.
    harness.wait_for(lambda: d.js("return Number(document.getElementById('track').dataset.course || 0)") > 1, 30,
                     "the course drawn under the track")
    harness.wait_for(lambda: not d.js("return document.getElementById('t-togo').hidden"), 30, "the To go tile")
    drawn = d.js("""const c = document.querySelector('#track polyline.course');
        const t = [...document.querySelectorAll('#track polyline')].filter((p) => !p.classList.contains('course'));
        return [c.getAttribute('points').split(' ').length, t.length, c.compareDocumentPosition(t[0] || c)];""")
    assert drawn[0] > 1, drawn
    seen = []

    def caught_up():
        """The page's distance to go, then the wearable's own: one update apart at most (a second of
        running, 60 times fast), once the page has caught up with the session (the page's stream
        lags on a loaded machine; each look is kept for the failure's message)."""
        to_go = d.js("return [Number(document.getElementById('t-togo').dataset.value), "
                     "document.getElementById('t-togo').dataset.state, document.getElementById('l-togo').textContent]")
        status = d.ctl_status()["status"]["course"]
        seen.append((to_go, status.get("to_go_m"), status.get("state")))
        return (status["name"] == "Park loop" and to_go[1] in ("on_course", "not_started")
                and abs(to_go[0] - status["to_go_m"]) < 60
                and (to_go, status))
    try:
        to_go, status = harness.wait_for(caught_up, 30, "the page's distance to go to catch up with the wearable's",
                                         every=0.5)
    except AssertionError:
        raise AssertionError(f"the page's distance to go never caught up: {seen[-5:]}")
    d.shot("course", 412, 892)
    d.shot("course", 1280, 800)
    # Another course, sent and removed from the page: gone from both.
    spare = os.path.join(d.setup.dir, "spare.gpx")
    with open(spare, "w") as f:
        f.write('<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><rte>'
                '<rtept lat="51.5" lon="-0.13"/><rtept lat="51.501" lon="-0.13"/><rtept lat="51.501" lon="-0.128"/>'
                '</rte></gpx>')
    assert add(spare, "Spare").startswith("added Spare: "), d.text("course-note")
    assert send("Spare").startswith("sent Spare in 1 parts"), d.text("course-note")
    d.js("document.querySelector('li[data-course=\"Spare\"] [data-course-action=\"remove\"]').click()")
    removed = harness.wait_for(lambda: d.text("course-note") if d.text("course-note").startswith(("removed Spare:",
                               "the wearable keeps")) else None, 60, "Spare to be removed")
    assert removed == 'removed Spare: course "Spare" removed', removed
    assert d.wear_rows("SELECT name FROM course") == [("Park loop",)]
    assert not d.js("return !!document.querySelector('li[data-course=\"Spare\"]')")
    # A file that is no course: refused with its reason, nothing kept.
    junk = os.path.join(d.setup.dir, "junk.gpx")
    with open(junk, "w") as f:
        f.write("<gpx><trk><trkseg><trkpt lat='91' lon='0'/></trkseg></trk></gpx>")
    refused = add(junk, "Junk")
    assert refused.startswith("not added: "), refused
    assert [c["name"] for c in http(d.base + "/api/courses")[1]["courses"]] == ["Park loop"]
    return (f"{file_points} file points added as {added.split('points kept')[0].split(', ')[-1]}points; {sent}; "
            f"the session on it drawn with {drawn[0]} course points, to go {to_go[0] / 1000:.2f} km ({to_go[1]}); "
            f"a second course sent and removed from both; a bad file: {refused}")


def test_history_and_downloads(d):
    """End the session from the page, then the history page lists it and its GPX and FIT download
    through the page are files the export tests' parsers accept."""
    state, end_id = d.click_command("end")
    state, _ = d.wait_command("end", timeout=60)
    assert state == "ack", f"end: {state}"
    session = d.wear_rows("SELECT session_id FROM command WHERE id = ?", (end_id,))[0][0]
    harness.wait_for(lambda: d.phone_rows("SELECT done FROM backfill WHERE session = ?", (session,)) == [(1,)], 60,
                     "the backfill")
    d.driver.get(d.base + "/history")
    harness.wait_for(lambda: d.js(f"return !!document.querySelector('tr[data-session=\"{session}\"] button')"), 20,
                     "the session's download buttons")
    # The link strip is there off the live page too: the one wearable's own state, not "connecting".
    harness.wait_for(lambda: d.link_state() in ("live", "paused"), 10, "the link strip on the history page")
    import gpxpy
    import fitdecode
    sizes = {}
    for fmt in ("gpx", "fit"):
        d.js(f"document.querySelector('tr[data-session=\"{session}\"] button[data-format=\"{fmt}\"]').click()")
        path = os.path.join(d.downloads, f"{session}.{fmt}")
        harness.wait_for(lambda: os.path.exists(path) and os.path.getsize(path) > 0, 30, f"the {fmt} download")
        time.sleep(0.5)
        sizes[fmt] = os.path.getsize(path)
    with open(os.path.join(d.downloads, f"{session}.gpx")) as f:
        gpx = gpxpy.parse(f)
    points = sum(len(s.points) for t in gpx.tracks for s in t.segments)
    records = 0
    with fitdecode.FitReader(os.path.join(d.downloads, f"{session}.fit"), check_crc=fitdecode.CrcCheck.RAISE) as fit:
        for frame in fit:
            if isinstance(frame, fitdecode.FitDataMessage) and frame.name == "record":
                records += 1
    assert points > 0 and records >= points, f"the GPX has {points} points, the FIT {records} records"
    # The same exporters as the CLI: the wearable's own export of its data log is the same file.
    for fmt in ("gpx", "fit"):
        own = os.path.join(d.setup.dir, f"own.{fmt}")
        harness.run([f"{BIN}/wearbridge", "export", session, "--format", fmt, "-o", own, "--force",
                     "--config", d.setup.wear_config])
        mine = os.path.join(d.downloads, f"{session}.{fmt}")
        if fmt == "gpx":
            gpx_points = lambda path: [(p.latitude, p.longitude, p.time) for t in gpxpy.parse(open(path)).tracks
                                   for g in t.segments for p in g.points]
            assert gpx_points(own) == gpx_points(mine), "the dashboard's GPX points differ from `wearbridge export`"
        else:  # FIT: the same records (its file header names when each file was made)
            assert fit_records(own) == fit_records(mine), "the dashboard's FIT records differ from `wearbridge export`"
    note = d.text("download-note")
    assert "saved" in note, f"the page says {note!r}"
    d.shot("history", 412, 892)
    d.shot("history", 1280, 800)
    return (f"GPX {points} points ({sizes['gpx']} B), FIT {records} records with CRCs ({sizes['fit']} B), "
            "the same as `wearbridge export` (GPX points, FIT records)")


def fit_records(path):
    import fitdecode
    with fitdecode.FitReader(path, check_crc=fitdecode.CrcCheck.RAISE) as fit:
        return [[(f.name, f.value) for f in frame.fields] for frame in fit
                if isinstance(frame, fitdecode.FitDataMessage) and frame.name in ("record", "lap", "session")]


def test_schemathesis_against_the_openapi_document(d):
    """schemathesis from the OpenAPI document the server serves: no 5xx, responses as documented; the
    link unaffected (inbox == outbox after)."""
    log = os.path.join(d.setup.dir, "schemathesis.log")
    with open(log, "w") as out:
        code = subprocess.call(
            [sys.executable, "-m", "schemathesis.cli", "run", f"{d.base}/api/openapi.yaml", "--url", d.base,
             "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,"
             "response_schema_conformance",
             "--exclude-path", "/api/wearables/{name}/events", "--max-examples", "40", "--seed", "7",
             "--request-timeout", "20"],
            stdout=out, stderr=subprocess.STDOUT, env=harness.ENV, timeout=600)
    tail = open(log).read()[-3000:]
    assert code == 0, f"schemathesis exited {code}:\n{tail}"
    assert d.phone_process.poll() is None, "the phone died"
    harness.wait_for(d.setup.delivered_everything, 60, "delivery after the fuzz")
    n = d.setup.check_inbox_equals_outbox()
    summary = [line for line in tail.splitlines() if "passed" in line or "cases" in line.lower()]
    return f"{summary[-1].strip() if summary else 'passed'}; inbox == outbox ({n})"


def test_access_beyond_loopback():
    """Beyond loopback: refused without TLS, refused without a pairing secret; with both, a request
    from a non-loopback address needs the secret."""
    setup = harness.Setup()
    port = harness.free_port()
    results = []
    setup.write_phone_config(f"\n[dashboard]\nlisten = \"0.0.0.0\"\nport = {port}\n")
    out = harness.run([f"{BIN}/wearbridge-phone", "run", "--config", setup.phone_config], timeout=30, check=False)
    assert out.returncode == 78 and "tls = true" in out.stdout + out.stderr, out.stdout + out.stderr
    results.append("no TLS: refused")
    setup.write_phone_config(f"\n[dashboard]\nlisten = \"0.0.0.0\"\nport = {port}\ntls = true\n")
    out = harness.run([f"{BIN}/wearbridge-phone", "run", "--config", setup.phone_config], timeout=30, check=False)
    assert out.returncode == 78 and "dashboard pair" in out.stdout + out.stderr, out.stdout + out.stderr
    results.append("no secret: refused")
    paired = harness.run([f"{BIN}/wearbridge-phone", "dashboard", "pair", "--config", setup.phone_config]).stdout
    secret = paired.split()[1]
    process = setup.phone()
    address = next(a for a in subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split()
                   if ":" not in a and not a.startswith("127."))
    import ssl
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    base = f"https://{address}:{port}"
    try:
        harness.wait_for(lambda: http(f"https://127.0.0.1:{port}/api/health", context=context)[0] == 200, 30, "TLS up")
        status, body, _ = http(base + "/api/wearables", context=context)
        assert status == 401 and body["error"] == "pairing_required", (status, body)
        status, _, _ = http(base + "/api/wearables", context=context, headers={"Authorization": "Bearer " + "0" * 64})
        assert status == 401, status
        status, body, _ = http(base + "/api/wearables/pi/commands", "POST", b'{"id":"abcdefgh9","kind":"pause"}',
                               {"Content-Type": "application/json"}, context=context)
        assert status == 401, f"a command without the secret: {status}"
        status, _, _ = http(base + "/api/wearables", context=context, headers={"Authorization": "Bearer " + secret})
        assert status == 200, status
        status, body, headers = http(base + "/api/pair", "POST", json.dumps({"secret": secret}).encode(),
                                     {"Content-Type": "application/json"}, context=context)
        cookie = headers.get("Set-Cookie", "")
        assert status == 200 and "Secure" in cookie and "HttpOnly" in cookie, (status, cookie)
        status, _, _ = http(base + "/api/sessions", context=context, headers={"Cookie": cookie.split(";")[0]})
        assert status == 200, status
        results.append(f"from {address}: 401 without, 200 with the secret (bearer, cookie)")
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(15)
    return "; ".join(results)

