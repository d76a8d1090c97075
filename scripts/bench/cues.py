#!/usr/bin/env python3
"""Audio cue figures, release build, one run (scripts/bench/cues.sh builds and calls this).

- Delay from the event (a command written to the control socket) to the first sample of the cue
  at the sink (PulseAudio's null sink, recorded from its monitor with 10 ms latency), p50/p99 over
  CUES_BENCH_COUNT cues; the baseline in the same run: `paplay` of the same cue pre-rendered by the
  espeak-ng command, launched by this script, to its first sample at the sink. The sink is kept
  running by a silent music stream, as it is while the wearer listens to music.
- Synthesis time per cue, from the daemon's cue_spoken events, and for a long cue from `say`.
- The daemon's CPU and peak RSS with cues on against off, on a real gpsd feed, alternating
  CUES_BENCH_ROUNDS times, while nothing is spoken: cues on with nothing said yet (espeak-ng not
  loaded), and cues on after the start cue was spoken (espeak-ng's voice loaded)."""
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "rigs"))
from sound import (BIN, ENV, DATA, PROCESSES, Pulse, Recorder, Wearable, run, scratch, spawn,  # noqa: E402
                   stop_all, tone, wait_for)
from harness import free_port, proc_figures  # noqa: E402

COUNT = int(os.environ.get("CUES_BENCH_COUNT", "60"))
ROUNDS = int(os.environ.get("CUES_BENCH_ROUNDS", "2"))
SECONDS = float(os.environ.get("CUES_BENCH_SECONDS", "40"))


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


def ms(seconds):
    return round(seconds * 1000, 1)


def latency():
    work = scratch("bench")
    pulse = Pulse(f"{work}/pulse").start()
    try:
        spawn(["paplay", "--property=media.role=music", tone(f"{work}/silence.wav", 3600, amplitude=0)],
              f"{work}/music.log")
        wearable = Wearable(work)
        recorder = Recorder(f"{work}/rec.log")
        time.sleep(1)
        assert "session started" in wearable.ctl("start").stdout
        wait_for(lambda: len(wearable.cue_events()) >= 1, 15, "the start cue")
        time.sleep(1.5)
        daemon = []
        for i in range(COUNT):
            spoken = len(wearable.cue_events())
            index = recorder.now_index()
            sent, reply = wearable.send("pause" if i % 2 == 0 else "resume")
            assert '"ok":true' in reply.replace(" ", ""), reply
            onset = recorder.onset_after(index)
            assert onset is not None, f"cue {i} never reached the sink"
            daemon.append(onset - sent)
            wait_for(lambda: len(wearable.cue_events()) > spoken, 15, "the cue to end")
            time.sleep(0.3)
        events = wearable.stored("SELECT detail FROM event WHERE kind = 'cue_spoken' ORDER BY seq")
        details = [json.loads(d) for (d,) in events]
        # The baseline: the same cues, rendered by the espeak-ng command beforehand, played by paplay.
        baseline = []
        for i in range(min(COUNT, 30)):
            wav = f"{work}/baseline-{i % 2}.wav"
            if not os.path.exists(wav):
                run(["espeak-ng", "-v", "en-gb", "-w", wav, "Paused." if i % 2 == 0 else "Resumed."])
            index = recorder.now_index()
            t0 = time.monotonic()
            player = subprocess.Popen(["paplay", "--property=media.role=announce", wav], env=ENV)
            onset = recorder.onset_after(index)
            baseline.append(onset - t0)
            player.wait()
            time.sleep(0.3)
        recorder.stop()
        # Synthesis of a long cue, through the same player (`say` prints it).
        renders = []
        text = "Split 12, 4 minutes 58 seconds, pace 4 minutes 58 per kilometre, heart rate 163."
        for _ in range(10):
            out = run([f"{BIN}/wearbridge", "say", "--config", wearable.config, text]).stdout
            renders.append(float(out.split(": ")[1].split(" ms to render")[0]) / 1000)
        return {
            "cues": len(daemon),
            "event_to_sink_p50_ms": ms(percentile(daemon, 0.5)),
            "event_to_sink_p99_ms": ms(percentile(daemon, 0.99)),
            "event_to_sink_max_ms": ms(max(daemon)),
            "baseline_paplay_to_sink_p50_ms": ms(percentile(baseline, 0.5)),
            "baseline_paplay_to_sink_p99_ms": ms(percentile(baseline, 0.99)),
            "ratio_p50": round(percentile(daemon, 0.5) / percentile(baseline, 0.5), 2),
            "cause_to_player_p50_ms": ms(percentile([d["delay_s"] for d in details], 0.5)),
            "synthesis_short_cue_p50_ms": ms(percentile([d["synthesis_s"] for d in details[1:]], 0.5)),
            "synthesis_short_cue_p99_ms": ms(percentile([d["synthesis_s"] for d in details[1:]], 0.99)),
            "synthesis_first_cue_ms": ms(details[0]["synthesis_s"]),
            "synthesis_split_cue_p50_ms": ms(percentile(renders, 0.5)),
            "split_cue_audio_s": round(float(out.split(", ")[1].split(" ms of sound")[0]) / 1000, 2),
        }
    finally:
        stop_all()
        PROCESSES.clear()
        pulse.stop()


def daemon_run(mode):
    """`off`, `on` (only split cues: nothing to say in the window) or `spoken` (the start cue first)."""
    work = scratch("cpu")
    port = free_port()
    spawn(["gpsfake", "-1", "-q", "-W", "900", "-c", "0.1", "-P", str(port),
           os.path.join(DATA, "gps", "tempo_10hz_3k.nmea")], f"{work}/gpsfake.log")
    cues = {"off": "enabled = false", "on": 'kinds = ["splits"]', "spoken": ""}[mode]
    wearable = Wearable(work, cues=cues, gpsd_port=port, autostart=True)
    wait_for(lambda: os.path.exists(f"{work}/data/wearbridge.sqlite")
             and wearable.stored("SELECT count(*) FROM session")[0][0] > 0, 60, "a session")
    if mode == "spoken":
        wait_for(lambda: wearable.cue_events(), 20, "the start cue")
    time.sleep(3)
    spoken0 = len(wearable.cue_events())
    cpu0, _ = proc_figures(wearable.process.pid)
    t0 = time.time()
    time.sleep(SECONDS)
    cpu1, hwm = proc_figures(wearable.process.pid)
    wall = time.time() - t0
    fixes = wearable.stored("SELECT count(*) FROM fix")[0][0]
    result = {"cpu_percent": 100 * (cpu1 - cpu0) / wall, "rss_mb": hwm, "fixes": fixes,
              "cues_spoken_while_measured": len(wearable.cue_events()) - spoken0}
    stop_all()
    PROCESSES.clear()
    return result


def main():
    figures = {"latency": latency()}
    work = scratch("cpu-pulse")
    pulse = Pulse(f"{work}/pulse").start()
    try:
        runs = {"off": [], "on": [], "spoken": []}
        for _ in range(ROUNDS):
            for mode in runs:
                runs[mode].append(daemon_run(mode))
    finally:
        pulse.stop()
    figures["runs"] = runs
    cpu = {mode: statistics.mean(r["cpu_percent"] for r in results) for mode, results in runs.items()}
    rss = {mode: statistics.mean(r["rss_mb"] for r in results) for mode, results in runs.items()}
    figures["quiet"] = {
        "cpu_percent": {mode: round(value, 3) for mode, value in cpu.items()},
        "cpu_ratio_on_vs_off": round(cpu["on"] / cpu["off"], 2) if cpu["off"] else None,
        "cpu_ratio_spoken_vs_off": round(cpu["spoken"] / cpu["off"], 2) if cpu["off"] else None,
        "rss_mb": {mode: round(value, 1) for mode, value in rss.items()},
        "rss_delta_on_mb": round(rss["on"] - rss["off"], 1),
        "rss_delta_spoken_mb": round(rss["spoken"] - rss["off"], 1),
    }
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    try:
        main()
    finally:
        stop_all()
