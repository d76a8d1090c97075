#!/usr/bin/env python3
"""Audio cues end to end with real parts: a real PulseAudio of its own (Tests/rigs/sound.py) with a null sink and
role ducking, music playing with media.role=music, the daemon speaking through espeak-ng and
paplay; what the sink's monitor records is analysed (the music's 440 Hz tone by Goertzel, the
speech as everything else). Then the sound server killed mid-cue and restarted, a hung one
(SIGSTOP), and the ALSA path through ALSA's file plugin."""
import os
import signal
import subprocess
import statistics
import sys
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rigs"))
from sound import (MUSIC, BIN, ENV, Pulse, Recorder, Wearable, run, scratch, spawn, stop_all, tone, wait_for,
                   windows, RATE)


def ducks_the_music_and_brings_it_back():
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
        deadline = time.time() + 15
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


def never_two_at_once():
    """Cues in quick succession play one after the other: never two announce streams at once."""
    work = scratch("overlap")
    pulse = Pulse(f"{work}/pulse").start()
    try:
        spawn(["paplay", "--property=media.role=music", tone(f"{work}/music.wav", 30, frequency=MUSIC)], f"{work}/music.log")
        wearable = Wearable(work)
        seen = []
        wearable.ctl("start")
        wearable.ctl("pause")
        deadline = time.time() + 12
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


def survives_a_killed_and_a_hung_sound_server():
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


def plays_straight_to_alsa():
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


TESTS = [ducks_the_music_and_brings_it_back, never_two_at_once, survives_a_killed_and_a_hung_sound_server,
         plays_straight_to_alsa]


def main():
    failed = 0
    for test in TESTS:
        print(f"{test.__name__}:")
        started = time.time()
        try:
            test()
            print(f"  ok ({time.time() - started:.1f} s)")
        except Exception:
            failed += 1
            traceback.print_exc()
            print(f"  FAILED ({time.time() - started:.1f} s)")
        finally:
            stop_all()
    print(f"audio cues end to end: {len(TESTS) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
