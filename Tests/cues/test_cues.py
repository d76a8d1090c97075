"""Audio cues end to end with real parts: a real PulseAudio of its own (Tests/rigs/sound.py) with a null sink and
role ducking, music playing with media.role=music, the daemon speaking through espeak-ng and
paplay; what the sink's monitor records is analysed (the music's 440 Hz tone by Goertzel, the
speech as everything else). Then the sound server killed mid-cue and restarted, a hung one
(SIGSTOP), and the ALSA path through ALSA's file plugin."""
import json
import math
import os
import signal
import subprocess
import statistics
import time

import harness
from sound import (MUSIC, BIN, ENV, Pulse, Recorder, Wearable, run, scratch, spawn, stop_all, tone, wait_for,
                   windows, RATE)


def test_ducks_the_music_and_brings_it_back():
    """A cue over music: the music falls while the cue plays and comes back; the speech is there."""
    work = scratch("duck")
    pulse = Pulse(f"{work}/pulse").start()
    try:
        music = spawn(["paplay", "--property=media.role=music", tone(f"{work}/music.wav", 30, frequency=MUSIC)], f"{work}/music.log")
        wearable = Wearable(work)
        time.sleep(1)
        recorder = Recorder(f"{work}/rec.log")
        time.sleep(1.5)
        start = recorder.now_index() - RATE  # one second of music alone first
        assert "session started" in wearable.ctl("start").stdout
        # While the cue plays, the server's own view of the music stream: ducked, never corked.
        corked = []
        deadline = time.time() + 15 * harness.GUARD
        while time.time() < deadline and not wearable.cue_events():
            out = subprocess.run(["pactl", "list", "sink-inputs"], capture_output=True, text=True, env=ENV).stdout
            corked += [block for block in out.split("Sink Input #") if 'media.role = "music"' in block
                       and "Corked: yes" in block]
            time.sleep(0.05)
        assert wearable.cue_events(), "the cue was not spoken"
        time.sleep(2.5)
        samples = recorder.samples[start:recorder.now_index()]
        recorder.stop()
        assert music.poll() is None, "the music stopped (corked?)"
        levels = windows(samples)
        baseline = statistics.median(m for m, _ in levels[:15])
        speech = [i for i, (_, rest) in enumerate(levels) if rest > 0.01 * baseline]
        assert len(speech) * 0.05 >= 0.4, f"no speech heard: {len(speech)} windows"
        first, last = speech[0], speech[-1]
        during = statistics.median(levels[i][0] for i in range(first, last + 1))
        after = statistics.median(m for m, _ in levels[last + 20:last + 36])
        quietest = statistics.quantiles([levels[i][0] for i in range(first, last + 1)], n=10)[0]
        if os.environ.get("CUES_E2E_TRACE"):
            print(" ".join(f"{m / baseline:.2f}/{r / baseline:.2f}" for m, r in levels))
        print(f"  music {baseline:.0f} before, {during:.0f} under the cue ({during / baseline:.2f}), "
              f"{after:.0f} after ({after / baseline:.2f}); speech {len(speech) * 0.05:.2f} s; "
              f"lowest decile {quietest / baseline:.3f}; corked {len(corked)} times")
        # module-role-ducking's 30% is PulseAudio's cubic volume: about 3% of the amplitude.
        assert during < 0.5 * baseline, "the music was not ducked under the cue"
        assert after > 0.85 * baseline, "the music did not come back"
        # Corked music would read 0 here, speech leaking into the 70 Hz bin aside; ducked reads ~0.03.
        assert quietest > 0.005 * baseline and not corked, "the music stopped instead of ducking"
        spoken = wearable.stored("SELECT detail FROM event WHERE kind = 'cue_spoken'")
        assert len(spoken) == 1 and "Session started" in spoken[0][0], spoken
    finally:
        stop_all()
        pulse.stop()


def test_never_two_at_once():
    """Cues in quick succession play one after the other: never two announce streams at once."""
    work = scratch("overlap")
    pulse = Pulse(f"{work}/pulse").start()
    try:
        spawn(["paplay", "--property=media.role=music", tone(f"{work}/music.wav", 30, frequency=MUSIC)], f"{work}/music.log")
        wearable = Wearable(work)
        seen = []
        wearable.ctl("start")
        wearable.ctl("pause")
        deadline = time.time() + 12 * harness.GUARD
        while time.time() < deadline and len(wearable.cue_events()) < 2:
            seen.append(pulse.announce_streams())
            time.sleep(0.02)
        time.sleep(0.5)
        kinds = [line.split("cue=")[1].split()[0] for line in wearable.cue_events()]
        print(f"  spoken {kinds}; announce streams at once: at most {max(seen)} ({len(seen)} looks)")
        assert kinds == ["session_started", "paused"], kinds
        assert max(seen) == 1, "two cues played at once"
        assert seen.count(1) > 10
    finally:
        stop_all()
        pulse.stop()


def test_survives_a_killed_and_a_hung_sound_server():
    """Killed mid-cue: that cue is dropped, the daemon records on and answers, one error is logged
    for the outage, and after a restart the next cue is heard. Hung (SIGSTOP): the cue's player is
    killed at its deadline and status answers meanwhile."""
    work = scratch("kill")
    pulse = Pulse(f"{work}/pulse").start()
    try:
        spawn(["paplay", "--property=media.role=music", tone(f"{work}/music.wav", 120)], f"{work}/music.log")
        wearable = Wearable(work, cues="rate = 80")
        wearable.ctl("start")
        wait_for(lambda: pulse.announce_streams() == 1, 10, "the cue to play")
        time.sleep(0.3)
        pulse.kill()
        wait_for(lambda: wearable.cue_events("cue_dropped"), 15, "the killed cue to be dropped")
        # While the server is gone: more cues are lost, one error in the log, the daemon answers.
        assert "paused" in wearable.ctl("pause").stdout
        assert "resumed" in wearable.ctl("resume").stdout
        wait_for(lambda: len(wearable.cue_events("cue_dropped")) >= 3, 20, "cues dropped in the outage")
        status = wearable.ctl("status")
        assert status.returncode == 0 and "active" in status.stdout, status.stdout
        errors = wearable.text().count("cannot play cues")
        assert errors == 1, f"the outage was logged {errors} times"
        pulse.start()
        spawn(["paplay", "--property=media.role=music", tone(f"{work}/music2.wav", 60)], f"{work}/music2.log")
        recorder = Recorder(f"{work}/rec.log")
        start = recorder.now_index()
        wearable.ctl("pause")
        wait_for(lambda: len(wearable.cue_events()) >= 1, 20, "the next cue after the restart")
        time.sleep(1)
        levels = windows(recorder.samples[start:recorder.now_index()])
        recorder.stop()
        baseline = max(m for m, _ in levels)
        heard = sum(1 for _, rest in levels if rest > 0.01 * baseline) * 0.05
        assert heard > 0.3, f"the cue after the restart was not heard ({heard:.2f} s)"
        assert "cues are heard again" in wearable.text()
        dropped = wearable.stored("SELECT detail FROM event WHERE kind = 'cue_dropped'")
        assert any("output_failed" in d for (d,) in dropped), dropped
        print(f"  killed mid-cue: {len(dropped)} cues dropped in the outage (1 error logged); "
              f"after the restart the next cue was heard ({heard:.2f} s of speech)")

        # Hung: the server stops answering; the cue's player is killed, status still answers.
        pulse.signal(signal.SIGSTOP)
        try:
            before = len(wearable.cue_events("cue_dropped"))
            wearable.ctl("resume")
            t0 = time.time()
            status = wearable.ctl("status", timeout=5)
            answered = time.time() - t0
            assert status.returncode == 0, status.stderr
            wait_for(lambda: len(wearable.cue_events("cue_dropped")) > before, 30, "the hung cue to be given up")
            last = wearable.cue_events("cue_dropped")[-1]
            assert "output_hung" in last, last
        finally:
            pulse.signal(signal.SIGCONT)
        print(f"  hung server: status answered in {answered * 1000:.0f} ms, the cue's player was killed at its deadline")
        assert wearable.process.poll() is None
    finally:
        stop_all()
        pulse.stop()


def test_plays_straight_to_alsa():
    """No sound server: `say` plays to ALSA (here ALSA's file plugin, which writes what it got)."""
    work = scratch("alsa")
    out = f"{work}/heard.raw"
    env = {k: v for k, v in ENV.items() if k not in ("PULSE_SERVER", "XDG_RUNTIME_DIR")}
    env["XDG_RUNTIME_DIR"] = f"{work}/no-server"
    config = f"{work}/w.toml"
    with open(config, "w") as f:
        f.write(f'[cues]\nalsa_device = "file:\'{out}\',raw"\n')
    import subprocess
    result = subprocess.run([f"{BIN}/wearbridge", "say", "--config", config, "Split 3, 5 minutes 1 second"],
                            capture_output=True, text=True, env=env, timeout=30)
    assert result.returncode == 0, result.stderr
    assert "spoken via alsa" in result.stdout, result.stdout
    info = run(["sox", "-t", "raw", "-r", "22050", "-e", "signed", "-b", "16", "-c", "1", out, "-n", "stat"]).stderr
    length = float(info.split("Length (seconds):")[1].split()[0])
    rms = float(info.split("RMS     amplitude:")[1].split()[0])
    print(f"  {result.stdout.strip()}; the ALSA file holds {length:.2f} s, RMS {rms:.3f}")
    assert length > 1.0 and rms > 0.02
    # A device that does not exist: a clear error and exit status 1, no hang.
    bad = subprocess.run([f"{BIN}/wearbridge", "say", "--config", config, "--device", "hw:99", "x"],
                         capture_output=True, text=True, env=env, timeout=30)
    assert bad.returncode == 1 and "aplay failed" in bad.stderr, bad.stderr


# A course for the off-course test: 800 m east, a left turn, 400 m north; the runner at 4 m/s leaves
# it 300 m along (120 m to the right, from 350 m to 550 m along) and comes back by 600 m.
COURSE_ORIGIN = (48.2000, 16.4000)
TURN_AT = 800.0


def course_point(along, lateral=0.0):
    """East and north (m) of a place `along` the course, `lateral` m to its right."""
    if along <= TURN_AT:
        return along, -lateral
    return TURN_AT + lateral, along - TURN_AT


def to_degrees(east, north):
    lat0, lon0 = COURSE_ORIGIN
    return lat0 + north / 111_200.0, lon0 + east / (111_320.0 * math.cos(math.radians(lat0)))


def detour(along):
    """How far right of the course the runner is, `along` it."""
    if along < 300 or along > 600:
        return 0.0
    if along < 350:
        return 120 * (along - 300) / 50
    if along <= 550:
        return 120.0
    return 120 * (600 - along) / 50


def course_run_nmea(path, start, standing=30, speed=4.0, end=1180.0):
    """NMEA 0183 of the run at 1 Hz from GPS time `start`: `standing` s still at the start, then
    along the course with the detour; [(gps time, along, lateral)] as the truth."""
    def nmea(body):
        checksum = 0
        for char in body:
            checksum ^= ord(char)
        return f"${body}*{checksum:02X}"

    def coordinate(value, degrees_width, positive, negative):
        hemisphere = positive if value >= 0 else negative
        value = abs(value)
        degrees = int(value)
        return f"{degrees:0{degrees_width}d}{(value - degrees) * 60:08.5f}", hemisphere

    truth, lines = [], []
    along, t = 0.0, float(start)
    previous = None
    while along <= end:
        lateral = detour(along)
        east, north = course_point(along, lateral)
        lat, lon = to_degrees(east, north)
        truth.append((t, along, lateral))
        moment = time.gmtime(t)
        hms = time.strftime("%H%M%S", moment) + ".00"
        date = time.strftime("%d%m%y", moment)
        la, ns = coordinate(lat, 2, "N", "S")
        lo, ew = coordinate(lon, 3, "E", "W")
        moving = t >= start + standing
        course = 90.0 if previous is None else (math.degrees(math.atan2(east - previous[0], north - previous[1])) % 360)
        knots = (speed if moving else 0) / 0.514444
        lines.append(nmea(f"GPRMC,{hms},A,{la},{ns},{lo},{ew},{knots:.2f},{course:.1f},{date},,,A"))
        lines.append(nmea(f"GPGGA,{hms},{la},{ns},{lo},{ew},1,10,0.8,180.0,M,45.0,M,,"))
        lines.append(nmea("GPGSA,A,3,01,03,07,08,11,14,17,19,22,28,,,1.4,0.8,1.1"))
        previous = (east, north)
        if moving:
            # Along the course at `speed`; on the detour the sideways steps take their share of it.
            step = speed
            here = detour(along)
            for _ in range(40):
                ahead = along + step
                if math.hypot(step, detour(ahead) - here) <= speed + 0.01:
                    break
                step *= 0.95
            along += step
        t += 1
    with open(path, "w") as f:
        f.write("\r\n".join(lines) + "\r\n")
    return truth


def course_gpx(path, name):
    harness.write_gpx_track(path, name, [to_degrees(*course_point(along)) for along in range(0, 1201, 10)])


def test_speaks_a_course_off_and_back():
    """A course sent from the phone to a wearable fed by a real gpsd (gpsfake, 3 times real time),
    a session on it: the run leaves the course and comes back. Off course is said once the runner
    has been 40 m off for 15 s, back on course once within 25 m for 5 s, the left turn 100 m before
    it; each where the fixes put the runner, and each heard on the sound server's sink while it
    was spoken."""
    work = scratch("course")
    pulse = Pulse(f"{work}/pulse").start()
    try:
        setup = harness.Setup()
        with open(setup.wear_config) as f:
            config = f.read().replace("autostart = true", "autostart = false").replace(
                "[cues]\nenabled = false\n", '[cues]\noutput = "pulse"\n')
        with open(setup.wear_config, "w") as f:
            f.write(config)
        gpx = os.path.join(work, "course.gpx")
        course_gpx(gpx, "Ring road")
        run([f"{BIN}/wearbridge-phone", "course", "add", gpx, "--config", setup.phone_config])
        setup.phone()
        wearable_process = setup.wearable()
        sent = run([f"{BIN}/wearbridge-phone", "course", "send", "Ring road", "--config", setup.phone_config],
                   timeout=90).stdout
        assert sent.startswith('SENT course "Ring road"'), sent
        speedup = 3
        recording = os.path.join(work, "run.nmea")
        truth = course_run_nmea(recording, start=int(time.time()) - 3600)
        recorder = Recorder(f"{work}/rec.log")
        setup.gpsfake(cycle=f"{1 / (3 * speedup):.4f}", recording=recording)
        socket_path = os.path.join(setup.dir, "control.sock")

        def has_fix():
            out = run([f"{BIN}/wearbridge", "ctl", "status", "--json", "--socket", socket_path], check=False)
            return out.returncode == 0 and (json.loads(out.stdout)["status"].get("gps") or {}).get("mode") == 3
        wait_for(has_fix, 30, "the wearable's first fix")
        started = run([f"{BIN}/wearbridge-phone", "start", "--course", "Ring road", "--config", setup.phone_config],
                      timeout=60).stdout
        assert started.startswith("ACK start"), started
        db = f"{setup.wear_dir}/wearbridge.sqlite"

        def events(kind):
            return harness.rows(db, "SELECT received, detail FROM event WHERE kind = ? ORDER BY seq", (kind,))
        wait_for(lambda: events("turn_ahead"), 240, "the turn to be cued")
        time.sleep(4)  # the turn's cue is spoken after the one before it
        samples = recorder.samples[:]
        arrivals = list(recorder.arrivals)
        recorder.stop()
        assert wearable_process.poll() is None, "the wearable died"

        # Where the fixes put the runner when each was said: the last accepted fix before it.
        frame_lat, frame_lon = COURSE_ORIGIN
        fixes = harness.rows(db, "SELECT received, time, smoothed_lat, smoothed_lon FROM fix "
                                 "WHERE verdict = 'accepted' ORDER BY seq")

        def place(at):
            t = max((f for f in fixes if f[0] <= at), key=lambda f: f[0])[1]
            return min(truth, key=lambda row: abs(row[0] - t))
        first_far = next(f for f in fixes if place(f[0])[2] > 40)
        first_near = next(f for f in fixes if f[0] > first_far[0] and place(f[0])[2] < 25)
        (off_at, off_detail), = events("off_course")
        (back_at, back_detail), = events("back_on_course")
        (turn_at, turn_detail), = events("turn_ahead")
        off_delay = off_at - first_far[0]
        back_delay = back_at - first_near[0]
        off_place, back_place, turn_place = place(off_at), place(back_at), place(turn_at)

        # The dwells are on the daemon's clock of the fixes' arrival, as the fixes in its log say:
        # off course at the first fix 15 s after its smoothed position went 40 m off, never sooner
        # and not a fix later; back on course 5 s after it came within 25 m. Judged from the log's
        # own fixes, whatever pace gpsfake kept on a loaded machine (the metre either side of each
        # threshold allows for the daemon's geodesy against this test's flat frame).
        def away(fix):
            east = (fix[3] - COURSE_ORIGIN[1]) * 111_320.0 * math.cos(math.radians(COURSE_ORIGIN[0]))
            north = (fix[2] - COURSE_ORIGIN[0]) * 111_200.0
            first = math.hypot(min(max(east, 0.0), TURN_AT) - east, north)
            second = math.hypot(TURN_AT - east, min(max(north, 0.0), 1200.0 - TURN_AT) - north)
            return min(first, second)

        def dwell(after, beyond, within, seconds):
            """(earliest, latest) on the daemon's clock for an event `seconds` after the smoothed
            position crossed a threshold, from the fixes after `after`."""
            later = [f for f in fixes if f[0] > after]
            crossed = (lambda f, m: away(f) > m) if beyond is not None else (lambda f, m: away(f) < m)
            threshold = beyond if beyond is not None else within
            loose = next(f for f in later if crossed(f, threshold - 1 if beyond is not None else threshold + 1))
            sure = next(f for f in later if crossed(f, threshold + 1 if beyond is not None else threshold - 1))
            due = next((f[0] for f in fixes if f[0] >= sure[0] + seconds), float("inf"))
            return loose[0] + seconds, due
        started_at = harness.rows(db, "SELECT received FROM event WHERE kind = 'course_following' ORDER BY seq")[0][0]
        earliest, latest = dwell(started_at, 40, None, 15)
        assert earliest <= off_at <= latest and off_place[2] == 120, (off_at, earliest, latest, off_place)
        assert json.loads(off_detail)["away_m"] > 100, off_detail
        earliest, latest = dwell(off_at, None, 25, 5)
        assert earliest <= back_at <= latest and back_place[2] < 25, (back_at, earliest, latest, back_place)
        assert 580 <= json.loads(back_detail)["along_m"] <= 700, back_detail
        turn = json.loads(turn_detail)
        assert turn["direction"] == "left" and 80 <= turn["in_m"] <= 100 and 690 <= turn_place[1] <= 725, \
            (turn, turn_place)

        # Each spoken while the recorder heard speech: energy on the sink in the cue's own window.
        said = [(at, json.loads(d)) for at, d in events("cue_spoken")]
        spoken = {}
        for cue, words in (("following", "Following Ring road"), ("off_course", "Off course, 120 metres away"),
                           ("back_on_course", "Back on course"), ("turn_ahead", "In 100 metres, turn left")):
            found = [(at, d) for at, d in said if d["text"].startswith(words)]
            assert len(found) == 1, (cue, [d["text"] for _, d in said])
            spoken[cue] = found[0]
        heard = {}
        for cue in ("off_course", "back_on_course", "turn_ahead"):
            at, detail = spoken[cue]
            begin, end = at - detail["play_s"] - 0.5, at + 0.5
            indices = [i for (t, i) in arrivals if begin <= t <= end]
            assert indices, f"the recorder has nothing from {begin:.1f} to {end:.1f}"
            window = samples[max(0, indices[0] - RATE // 5):indices[-1]]
            loud = sum(1 for _, rest in windows(window) if rest > 300) * 0.05
            heard[cue] = loud
            assert loud >= 0.5, f"{cue}: {loud:.2f} s of speech on the sink while it was spoken"
        print(f"  off course said {off_delay:.1f} s after the first fix 40 m off, {off_place[1]:.0f} m along; back on "
              f"course {back_delay:.1f} s after the first fix within 25 m, at {json.loads(back_detail)['along_m']:.0f} m; "
              f"'turn left' {turn['in_m']:.0f} m before the turn; heard "
              + ", ".join(f"{cue} {seconds:.1f} s" for cue, seconds in heard.items()))
    finally:
        stop_all()
        pulse.stop()

