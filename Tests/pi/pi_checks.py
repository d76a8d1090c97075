"""What the virtual wearable is held to, read on the host from what it left: its disk (the data log
as the power cut left it, and at the end), the phone's inbox, the WAV files its sound card played
into, the NMEA the serial GPS sent, the payloads the strap sent, and what the guest reported of
systemd, journald, udev and itself."""
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess

from harness import rows as query  # Tests/rigs (on the path Tests/conftest.py sets): read-only SQLite

DATA = "/var/lib/wearbridge"
FILES = ("wearbridge.sqlite", "wearbridge.sqlite-wal", "wearbridge.sqlite-shm")


def extract(disk, directory, replay_journal):
    """The data log's files as they are on `disk`. With `replay_journal`, on a copy of the disk whose
    ext4 journal e2fsck has replayed first (what the next boot's mount does); returns e2fsck's word."""
    os.makedirs(directory, exist_ok=True)
    image, fsck = disk, None
    if replay_journal:
        image = f"{directory}/disk-copy.img"
        subprocess.run(["cp", "--sparse=always", disk, image], check=True)
        run = subprocess.run(["e2fsck", "-f", "-y", image], capture_output=True, text=True)
        # 0: clean; 1: errors corrected (a replayed journal counts); anything more is damage.
        assert run.returncode in (0, 1), f"e2fsck after the power cut: exit {run.returncode}\n{run.stdout}{run.stderr}"
        fsck = {"exit": run.returncode, "journal_replayed": "recovering journal" in run.stdout + run.stderr,
                "errors": [line for line in (run.stdout + run.stderr).splitlines()
                           if re.search(r"(?i)fix|inode|orphan|count wrong", line)][:5]}
    else:
        run = subprocess.run(["e2fsck", "-f", "-n", image], capture_output=True, text=True)
        assert run.returncode == 0, f"the disk is not clean after a clean power-off: {run.stdout}{run.stderr}"
    listing = subprocess.run(["debugfs", "-R", f"ls -l {DATA}", image], capture_output=True, text=True).stdout
    for name in FILES:
        target = f"{directory}/{name}"
        if os.path.exists(target):
            os.unlink(target)
        if re.search(rf"\s{re.escape(name)}\s*$", listing, re.MULTILINE):
            subprocess.run(["debugfs", "-R", f"dump {DATA}/{name} {target}", image], capture_output=True, check=True)
    if replay_journal:
        os.unlink(image)
    return f"{directory}/wearbridge.sqlite", fsck


def integrity(path):
    db = sqlite3.connect(path, timeout=10)
    try:
        return db.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        db.close()


def power_cut_state(disk, work):
    """The data log as the power cut left it: e2fsck replays the journal, SQLite (on a copy) its WAL,
    and the file must be intact with the session open."""
    path, fsck = extract(disk, f"{work}/after-cut", replay_journal=True)
    result = integrity(path)
    assert result == "ok", f"PRAGMA integrity_check after the power cut: {result}"
    sessions = query(path, "SELECT id, state FROM session")
    assert len(sessions) == 1 and sessions[0][1] != "ended", f"after the power cut: {sessions}"
    fixes = query(path, "SELECT count(*) FROM fix")[0][0]
    return {"integrity_check": result, "fsck": fsck, "session_state": sessions[0][1], "fixes": fixes}


def boots(events):
    """Event seq -> boot number (1, 2): a boot begins at each session_recovered."""
    boot, result = 1, {}
    for seq, kind in events:
        if kind == "session_recovered":
            boot += 1
        result[seq] = boot
    return result


def clock_offsets(path):
    """Per boot, UTC minus the guest's monotonic clock, from the fixes (GPS time and the monotonic
    instant the daemon read each): the median, and how far the fixes stray from it."""
    rows = query(path, "SELECT seq, received, time FROM fix WHERE time IS NOT NULL AND received IS NOT NULL "
                       "ORDER BY seq")
    offsets, boot, previous = {1: []}, 1, None
    for _, received, utc in rows:
        if previous is not None and received < previous - 5:
            boot += 1
            offsets[boot] = []
        offsets[boot].append(utc - received)
        previous = received
    return {b: statistics.median(values) for b, values in offsets.items() if values}


def sessionless_cues(journal):
    """The cues spoken when no session was open (the session's end is announced after it closed, so
    the data log has no row for it), from the journal: (boot, monotonic s, detail), boots numbered
    in the order the journal shows them."""
    boots_seen, result = [], []
    for line in journal.splitlines():
        if not line.startswith("{"):
            continue
        entry = json.loads(line)
        message = entry.get("MESSAGE")
        if entry.get("_BOOT_ID") not in boots_seen:
            boots_seen.append(entry.get("_BOOT_ID"))
        if not isinstance(message, str) or not message.startswith("session event ") or " session=" in message:
            continue
        detail = dict(re.findall(r"(\w+)=((?:(?! \w+=).)*)", message[len("session event "):]))
        if detail.get("event") == "cue_spoken":
            detail["audio_s"], detail["delay_s"] = float(detail["audio_s"]), float(detail["delay_s"])
            detail["play_s"] = float(detail.get("play_s", 0))
            result.append((boots_seen.index(entry["_BOOT_ID"]) + 1, int(entry["__MONOTONIC_TIMESTAMP"]) / 1e6, detail))
    return result


def cues_heard(path, captures, journal, power_cut_boots=(1,)):
    """Every cue the data log (or, with no session open, the journal) says was spoken is in the WAV
    of its boot, starting after its player was launched and in time to end before the player did,
    never cut short and never heard for longer than the player ran (both logged by the daemon); the
    split's and the pause's at the moment their events say (the monotonic instant of the fix that
    caused each, plus the cue's delay, of which only the part not spent behind another cue's player
    must be short). No other sound, but for one cue still playing when the power was cut (in a boot
    of `power_cut_boots`): the daemon logs a cue when its player ends, which that one never did."""
    offsets = clock_offsets(path)
    events = query(path, "SELECT seq, kind, time, received, detail FROM event ORDER BY seq")
    boot_of = boots([(seq, kind) for seq, kind, _, _, _ in events])
    by_kind = {}
    for seq, kind, utc, received, detail in events:
        by_kind.setdefault(kind, []).append((seq, utc, received, json.loads(detail)))
    heard = {b: capture.utterances() for b, capture in enumerate(captures, start=1)}
    results, problems = [], []
    spoken = [(boot_of[seq], received, detail) for seq, _, received, detail in by_kind.get("cue_spoken", [])]
    spoken += sessionless_cues(journal)
    players = {}  # boot -> [(launched, ended, entry)]: each logged cue's player, as the daemon timed it

    def window(launched, ended):
        """Where a player's sound may be heard: its run, with the slack of the clocks' mapping."""
        return launched - 0.5, ended + 0.6

    for boot, received, detail in spoken:
        # The daemon logs a cue when its player has ended: `received` is then, monotonic. The player
        # ran `play_s` from its launch (the sound's length, its start-up, and any stall of the
        # player or of the card under emulation); the sound is `audio_s` long.
        ended = received + offsets[boot]
        audio = float(detail["audio_s"])
        playing = float(detail.get("play_s") or 0) or audio
        launched = ended - playing
        # What was heard while its player ran. Two cues played back to back are one stretch of
        # sound in the WAV (no pause between them): each takes its own player's part of it.
        low, high = window(launched, ended)
        parts = [(max(a, low), min(b, high)) for a, b, _ in heard[boot] if b > low and a < high]
        entry = {"cue": detail["cue"], "text": detail["text"], "boot": boot, "log_began_utc": round(ended - audio, 2),
                 "audio_s": round(audio, 2), "play_s": round(playing, 2), "delay_s": round(float(detail["delay_s"]), 2),
                 "underruns": int(float(detail.get("audio_underruns", 0)))}
        # The sound begins after the launch (less a little for the clocks' mapping) and early
        # enough for all of it to play before the player ended.
        if not parts or parts[0][0] > ended - audio + 1.0:
            problems.append(f"cue {detail['cue']} ({detail['text']!r}) launched at {launched:.2f}, ended at {ended:.2f} "
                            f"in boot {boot}: nothing heard in time; heard {[round(u[0], 2) for u in heard[boot]]}")
        else:
            start, end = parts[0][0], parts[-1][1]
            entry.update(heard_utc=round(start, 2), heard_s=round(end - start, 2))
            # Never cut short.
            if end - start < audio - 0.6:
                problems.append(f"cue {detail['cue']}: heard for {end - start:.2f} s of its {audio:.2f} s, "
                                f"its player ran {playing:.2f} s ({entry['underruns']} underruns logged)")
        results.append(entry)
        players.setdefault(boot, []).append((launched, ended, entry))
    # The split and the pause at the moment their own events say: the monotonic instant of the fix
    # that caused each (the event's `received`; a split carries no GPS time of its own) on the host's
    # clock, plus the delay the cue log gives, which must itself be short (the pause waits its dwell).
    for cue, cause in (("split", "split"), ("auto_paused", "auto_paused")):
        spoken = [r for r in results if r["cue"] == cue]
        caused = [(seq, received) for seq, _, received, _ in by_kind.get(cause, []) if received is not None]
        if not spoken or not caused:
            problems.append(f"no {cue} cue spoken for its event ({len(spoken)} cues, {len(caused)} events)")
            continue
        seq, received = caused[0]
        event_utc = received + offsets[boot_of[seq]]
        expected = event_utc + spoken[0]["delay_s"]
        # Cues are spoken one at a time: a cue whose synthesis or playing had begun when this one's
        # event came goes first (a zone change just before a split). Its player's time is not this
        # cue's delay.
        behind = sum(max(0.0, min(ended, expected) - max(launched, event_utc))
                     for launched, ended, other in players.get(boot_of[seq], []) if other is not spoken[0])
        spoken[0]["behind_other_cues_s"] = round(behind, 2)
        # How long it waited besides is a figure: the emulated guest's synthesis stretches with the
        # host's load (docs/benchmarks.md has the cue latency of the deployment build).
        spoken[0]["waited_besides_s"] = round(spoken[0]["delay_s"] - behind, 2)
        if spoken[0]["delay_s"] - behind < 0:
            problems.append(f"the {cue} cue's delay {spoken[0]['delay_s']:.2f} s is shorter than the "
                            f"{behind:.2f} s it waited behind other cues")
        if "heard_utc" not in spoken[0] or abs(spoken[0]["heard_utc"] - expected) > 1.5:
            problems.append(f"the {cue} cue was heard at {spoken[0].get('heard_utc')}, its event says "
                            f"{event_utc:.2f} + delay {spoken[0]['delay_s']:.2f} = {expected:.2f}")
        spoken[0]["event_utc"] = round(event_utc, 2)
    # A cue replaced by a newer one of its kind before it was spoken ("GPS lost" by "GPS back") is
    # the design; any other drop is a cue the wearer did not hear.
    # The daemon gives espeak-ng 10 s to render a cue (a guard against a hung synthesizer): under
    # emulation on a loaded host a cold first synthesis can outlast it, and the cue is dropped with
    # `synthesis_failed`, as designed. Such a drop is a figure; any other is a failure.
    drops = [d[3] for d in by_kind.get("cue_dropped", []) if d[3].get("reason") != "replaced"]
    guarded = [d for d in drops if d.get("reason") == "synthesis_failed"]
    if guarded:
        results.append({"cue": "given up on the synthesis guard", "dropped": guarded})
    dropped = [d for d in drops if d.get("reason") != "synthesis_failed"]
    if dropped:
        problems.append(f"cues dropped: {dropped}")
    # No sound while no cue's player ran (nor longer than a player ran): each stretch heard lies
    # within the windows of the players running then, but for 0.3 s of rounding.
    unexplained, cut_by_power = [], []
    for b, us in heard.items():
        union = []
        for lo, hi in sorted(window(launched, ended) for launched, ended, _ in players.get(b, [])):
            if union and lo <= union[-1][1]:
                union[-1] = (union[-1][0], max(union[-1][1], hi))
            else:
                union.append((lo, hi))
        for a, z, _ in us:
            covered = sum(max(0.0, min(z, hi) - max(a, lo)) for lo, hi in union)
            if (z - a) - covered <= 0.3:
                continue
            # Sound until the WAV's last write (qemu killed at the cut), after every logged cue.
            cut_at = captures[b - 1].growth[-1][0] if captures[b - 1].growth else None
            if (b in power_cut_boots and cut_at is not None and cut_at - z < 0.5 and not cut_by_power
                    and all(hi <= a + 0.3 for _, hi in union)):
                cut_by_power.append({"boot": b, "heard_utc": round(a, 2), "heard_s": round(z - a, 2),
                                     "power_cut_utc": round(cut_at, 2)})
            else:
                unexplained.append((round(a, 2), round(z - a, 2), round(covered, 2)))
    if cut_by_power:
        results.append({"cue": "playing at the power cut", **cut_by_power[0]})
    if unexplained:
        problems.append(f"sound heard that no player explains (start, length, covered): {unexplained}")
    assert not problems, "cues:\n  " + "\n  ".join(problems)
    return results


def recorded_once(path, gps, strap_log):
    """Nothing counted twice: every fix's GPS time once and increasing, each one an epoch the serial
    GPS sent (a report gpsd repeated for an epoch is logged as `duplicate_epoch`, a repeat of one
    logged before it; reports without a position, as in the ride's tunnel, are no fixes); every beat
    a payload the strap sent while connected, in order, none twice; one session, recovered once,
    one restart gap."""
    rows = query(path, "SELECT seq, time, lat, lon, verdict FROM fix "
                       "WHERE time IS NOT NULL AND lat IS NOT NULL ORDER BY seq")
    fixes = [row for row in rows if row[4] != "duplicate_epoch"]
    times = [t for _, t, _, _, _ in fixes]
    assert times == sorted(times) and len(set(times)) == len(times), "a fix recorded twice or out of order"
    repeats = [t for _, t, _, _, verdict in rows if verdict == "duplicate_epoch"]
    assert set(repeats) <= set(times), f"a repeated epoch never logged first: {sorted(set(repeats) - set(times))[:5]}"
    sent = {at: (lat, lon) for at, _, lat, lon, _, valid, delivered in gps.sent if delivered and valid}
    strangers = [t for t in times if round(t) not in sent]
    assert not strangers, f"fixes at times the GPS never sent: {strangers[:5]}"
    for t, lat, lon in ((t, lat, lon) for _, t, lat, lon, _ in fixes):
        s_lat, s_lon = sent[round(t)]
        assert abs(s_lat - lat) < 1e-6 and abs(s_lon - lon) < 1e-6, f"fix at {t} is not what the GPS sent"
    payloads = [p.hex() for (p,) in query(path, "SELECT payload FROM heart_rate ORDER BY seq") if p is not None]
    with open(strap_log) as f:
        sent_payloads = [json.loads(line)["hex"] for line in f if line.strip()]
    position = 0
    for payload in payloads:  # in order, a subsequence of what was sent (a beat missed while off is no beat)
        while position < len(sent_payloads) and sent_payloads[position] != payload:
            position += 1
        assert position < len(sent_payloads), f"a beat the strap never sent (or twice, or out of order): {payload}"
        position += 1
    sessions = query(path, "SELECT id, state, distance_m, moving_s, elapsed_s FROM session")
    assert len(sessions) == 1, f"sessions: {sessions}"
    kinds = [k for (k,) in query(path, "SELECT kind FROM event ORDER BY seq")]
    assert kinds.count("session_recovered") == 1 and kinds.count("restart_gap") == 1, \
        f"recovered {kinds.count('session_recovered')} times, {kinds.count('restart_gap')} restart gaps"
    assert kinds.count("session_started") == 1 and kinds.count("session_ended") == 1
    splits = query(path, "SELECT idx, distance_m, duration_s FROM split ORDER BY idx")
    assert [i for i, _, _ in splits] == list(range(1, len(splits) + 1)) and splits, f"splits: {splits}"
    return {"fixes": len(fixes), "repeated_epochs": len(repeats), "epochs_delivered": len(sent), "beats": len(payloads),
            "notifications_sent": len(sent_payloads), "session": sessions[0], "splits": splits}


def inbox_equals_outbox(path, phone):
    """The phone holds every critical and notice message the wearable committed, once, in order."""
    wanted = [tuple(row) for row in query(path, "SELECT seq, class, kind FROM outbox WHERE class != 'snapshot' "
                                                "ORDER BY seq")]
    got = phone.inbox()
    assert got == wanted, (f"inbox != outbox: missing {sorted(set(wanted) - set(got))[:8]}, "
                           f"extra {sorted(set(got) - set(wanted))[:8]}")
    states = query(path, "SELECT DISTINCT state FROM outbox WHERE class != 'snapshot'")
    assert states == [("delivered",)], f"outbox states: {states}"
    return len(got)


def journal_priorities(journal):
    """journald kept the daemon's own lines at the levels it gave them: no raw <N> prefix left, each
    known line at its level, warnings and notices among them."""
    entries = [json.loads(line) for line in journal.splitlines() if line.startswith("{")]
    daemon = [e for e in entries if e.get("SYSLOG_IDENTIFIER") == "wearbridge"]
    assert daemon, "no journal lines from wearbridge"
    raw = [e["MESSAGE"] for e in daemon if isinstance(e.get("MESSAGE"), str) and re.match(r"<\d>", e["MESSAGE"])]
    assert not raw, f"priority prefixes left in the journal: {raw[:3]}"
    # Info for start-up, warning for a local user's garbage on the control socket (bad_control_request).
    expected = {"ready": {6}, "starting": {6}, "bad control request": {4}}
    for line, wanted in expected.items():
        got = {int(e["PRIORITY"]) for e in daemon if isinstance(e.get("MESSAGE"), str) and e["MESSAGE"].startswith(line)}
        assert got == wanted, f"'{line}' at priorities {got or 'none'}, not {wanted}"
    counts = {}
    for e in daemon:
        counts[int(e["PRIORITY"])] = counts.get(int(e["PRIORITY"]), 0) + 1
    return {"lines": len(daemon), "by_priority": dict(sorted(counts.items()))}


def clean_stop(disk, work):
    """The shutdown as the guest's own persistent journal tells it, read on the host (journalctl
    --file) from the powered-off disk: wearbridge stopped by SIGTERM, said STOPPING, committed and
    exited 0 within its TimeoutStopSec, never killed."""
    directory = f"{work}/journal"
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    subprocess.run(["debugfs", "-R", f"rdump /var/log/journal {directory}", disk], capture_output=True, check=True)
    files = [os.path.join(d, f) for d, _, fs in os.walk(directory) for f in fs if ".journal" in f]
    assert files, "no persistent journal on the wearable's disk"
    run = subprocess.run(["journalctl", "--no-pager", "-o", "json", "-b", "0", "_SYSTEMD_UNIT=wearbridge.service",
                          "+", "UNIT=wearbridge.service", *[a for f in files for a in ("--file", f)]],
                         capture_output=True, text=True)
    lines = [json.loads(line).get("MESSAGE") for line in run.stdout.splitlines() if line.startswith("{")]
    lines = [line for line in lines if isinstance(line, str)]
    stop = next((i for i, line in enumerate(lines) if line.startswith("Stopping wearbridge")), None)
    assert stop is not None, f"the last boot's journal does not show wearbridge stopping: {lines[-5:]}"
    after = lines[stop:]
    killed = [line for line in after if re.search(r"timed out|Killing|SIGKILL|Failed with result", line)]
    assert not killed and any("Deactivated successfully" in line for line in after), \
        f"wearbridge did not stop cleanly at power-off: {after[-8:]}"
    return after
