"""The relay's contract against a real PostgreSQL 15: scripts/rigs/relay-local.sh initialises a cluster in
a temporary directory with TLS and certificate authentication only, `wearbridge-phone relay migrate`
applies the schema, and runners come in with their certificates. The race commands are the real
`wearbridge-phone race ...`; the bad actors and the independent participant are Python's psycopg
speaking the SQL docs/relay.md documents, nothing else.

What is proven: identity by certificate (a wrong CA, a borrowed certificate, no TLS: refused);
a third runner reads and writes nothing of a race; a runner cannot write as another; plausibility
(backwards, too fast, a flood, an old sequence: refused with their reason, nothing stored); exactly
once (a resend is harmless); invites that expire and cannot then be accepted, at most three
pending; one race at a time; the two-phase finish decided from final figures, not snapshots; the
silent runner abandoned by the relay once, however many sweep; migrations applied once and a
changed one refused. Tests/rigs/relay_attacks.py is the fellow runner and the stranger who attack it."""
import json
import math
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import psycopg

import harness  # the Python rig: processes, configs and free ports
from harness import ROOT
from relay import PHONE, count, refused, snapshot, start_race, wait_for_start

def test_identity(relay):
    """The certificate is the identity: another CA, someone else's certificate, no TLS: refused."""
    with relay.connect("alice") as a:
        assert count(a, "SELECT session_user::text") == "alice"
    other = os.path.join(relay.dir, "other")
    os.makedirs(other)
    subprocess.run(["openssl", "req", "-x509", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                    "-nodes", "-days", "2", "-subj", "/CN=alice", "-keyout", f"{other}/alice.key", "-out",
                    f"{other}/alice.crt"], check=True, capture_output=True)
    attempts = {
        "a self-made certificate named alice": dict(sslcert=f"{other}/alice.crt", sslkey=f"{other}/alice.key"),
        "bob's certificate, logging in as alice": dict(sslcert=f"{relay.tls}/bob.crt", sslkey=f"{relay.tls}/bob.key"),
        "no certificate": dict(sslcert=f"{other}/none.crt", sslkey=f"{other}/none.key"),
        "no TLS": dict(sslmode="disable"),
    }
    for what, extra in attempts.items():
        try:
            relay.connect("alice", **extra).close()
        except psycopg.OperationalError as error:
            print(f"    refused, {what}: {str(error).strip().splitlines()[-1][:110]}")
            continue
        raise AssertionError(f"{what}: the relay let alice in")


def test_race_and_rules(relay):
    """Invite, accept with a start fixed by the database; a third runner reads and writes nothing;
    writes only as oneself; plausibility; exactly once; two-phase finish from final figures."""
    with relay.connect("alice") as a, relay.connect("bob") as b, relay.connect("mallory") as m:
        run = start_race(relay, "alice", "bob", "--distance", "100m", "--start-in", "12s")
        start_at = count(a, "SELECT start_at FROM relay.my_runs WHERE id = %s", run)
        # By the database's clock: 12 s after the acceptance's own transaction.
        accepted_at = count(a, "SELECT at FROM relay.run_events(%s) WHERE kind = 'accepted'", run)
        lead = (start_at - accepted_at).total_seconds()
        assert lead == 12, f"start at the acceptance's database time + 12 s, got +{lead:.3f} s"
        shown = json.loads(relay.phone("bob", "race", "show", run, "--json").stdout)
        assert shown["run"]["id"] == run and shown["run"]["state"] == "accepted", shown["run"]
        assert [e["kind"] for e in shown["events"]] == ["invited", "accepted"], shown["events"]

        # A third runner with a valid certificate sees nothing and writes nothing.
        assert count(m, "SELECT count(*) FROM relay.my_runs") == 0, "mallory reads relay.my_runs"
        for reader in ("relay.run_entries(%s)", "relay.run_events(%s)", "relay.run_messages(%s, 'alice')",
                       "relay.latest_snapshot(%s, 'alice')"):
            assert count(m, f"SELECT count(*) FROM {reader}", run) == 0, f"mallory reads {reader}"
        for table in ("relay.runs", "relay.entries", "relay.messages", "relay.events"):
            refused(lambda: m.execute(f"SELECT count(*) FROM {table}"), "42501", "permission denied")
        refused(lambda: snapshot(m, run, "mallory", 1, 1, 1), "42501", "row-level security")
        refused(lambda: snapshot(m, run, "alice", 1, 1, 1), "42501", "row-level security")
        refused(lambda: snapshot(b, run, "alice", 1, 1, 1), "42501", "row-level security")
        refused(lambda: m.execute("SELECT relay.finish(%s, 1000, 200, 200)", (run,)), "WB501")
        refused(lambda: m.execute("SELECT relay.cancel(%s)", (run,)), "WB302")
        refused(lambda: m.execute("UPDATE relay.runs SET winner = 'mallory'"), "42501")
        refused(lambda: b.execute("DELETE FROM relay.messages"), "42501")
        refused(lambda: b.execute("SELECT relay.decide(%s)", (run,)), "42501")
        out = relay.phone("mallory", "race", "show", run, check=False)
        assert out.returncode == 65 and "no run" in out.stderr, out.stderr

        # Plausibility, each refusal with its reason, nothing stored.
        snapshot(a, run, "alice", 1, 10, 5)
        refused(lambda: snapshot(a, run, "alice", 2, 12, 6), "WB606", "at most one per")
        time.sleep(0.6)
        refused(lambda: snapshot(a, run, "alice", 2, 4, 6), "WB604", "distance goes backwards: 4.0 m after 10.0 m")
        refused(lambda: snapshot(a, run, "alice", 2, 200, 8), "WB607", "beyond a run's top speed")
        refused(lambda: snapshot(a, run, "alice", 2, 20, 3), "WB605", "elapsed time goes backwards")
        refused(lambda: snapshot(b, run, "bob", 1, 500, 10), "WB607")
        refused(lambda: a.execute("INSERT INTO relay.messages (run_id, runner, seq, class, kind, body) "
                                  "VALUES (%s, 'alice', 9, 'notice', 'x', %s)", (run, json.dumps({"x": "y" * 5000}))),
                "23514")
        assert count(a, "SELECT count(*) FROM relay.run_messages(%s, 'alice')", run) == 1
        # Exactly once: the same key again is harmless, and so is an older snapshot resent late.
        snapshot(a, run, "alice", 2, 16, 7)
        snapshot(a, run, "alice", 2, 16, 7, conflict="ON CONFLICT DO NOTHING")
        snapshot(a, run, "alice", 1, 10, 5, conflict="ON CONFLICT DO NOTHING")
        assert count(b, "SELECT count(*) FROM relay.run_messages(%s, 'alice')", run) == 2
        received, expires = b.execute("SELECT received_at, expires_at FROM relay.latest_snapshot(%s, 'alice')",
                                      (run,)).fetchone()
        assert abs((expires - received).total_seconds() - 10) < 0.01, "a snapshot expires 10 s after it arrived"
        time.sleep(0.6)
        snapshot(a, run, "alice", 3, 22, 9)
        a.execute("INSERT INTO relay.messages (run_id, runner, seq, class, kind, distance_m, elapsed_s) "
                  "VALUES (%s, 'alice', 4, 'critical', 'paused', 22, 9)", (run,))
        a.execute("SELECT relay.report_start(%s, 240)", (run,))

        # Start offsets, then the two-phase finish: the last snapshots say bob leads, the final
        # figures from the data logs say alice was faster; the final figures decide. Final figures
        # come after the start, within the time the race has lasted by the relay's clock.
        b.execute("SELECT relay.report_start(%s, -180)", (run,))
        refused(lambda: a.execute("SELECT relay.finish(%s, 100.5, 12.0, 11.8)", (run,)), "WB506", "before its start")
        wait_for_start(a, run, after=3)
        snapshot(b, run, "bob", 2, 90, 12)
        assert count(a, "SELECT relay.finish(%s, 100.5, 12.0, 11.8)", run) == "accepted"
        refused(lambda: snapshot(a, run, "alice", 5, 101, 12.5), "WB602", "has ended")
        refused(lambda: a.execute("SELECT relay.finish(%s, 101, 12.5, 12)", (run,)), "WB502", "already ended")
        assert count(a, "SELECT relay.finish(%s, 100.5, 12.0, 11.8)", run) == "accepted", "a repeat is harmless"
        assert count(b, "SELECT relay.finish(%s, 100.1, 12.9, 12.9)", run) == "complete"
        state, winner = a.execute("SELECT state, winner::text FROM relay.my_runs WHERE id = %s", (run,)).fetchone()
        assert (state, winner) == ("complete", "alice"), (state, winner)
        shown = json.loads(relay.phone("alice", "race", "show", run, "--json").stdout)
        offsets = {e["runner"]: e.get("start_offset_milliseconds") for e in shown["entries"]}
        assert offsets == {"alice": 240, "bob": -180}, offsets
        kinds = [e["kind"] for e in shown["events"]]
        assert kinds == ["invited", "accepted", "started", "started", "finished", "finished", "result"], kinds
        text = relay.phone("alice", "race", "show", run).stdout
        assert "started 240 ms off" in text and "finished 100.5 m in 12.0 s" in text, text
        history = relay.phone("bob", "race", "history").stdout
        assert f"{run} complete" in history and "winner alice" in history, history
        refused(lambda: snapshot(b, run, "bob", 3, 95, 13), "WB601", "complete")


def test_invites(relay):
    """Invites expire by the database's clock and cannot then be accepted; at most three pending;
    declined and cancelled are final; one race at a time."""
    with relay.connect("carol") as c, relay.connect("dave") as d:
        run = relay.phone("carol", "race", "invite", "dave", "--expires-in", "1s").stdout.strip()
        time.sleep(1.3)
        assert relay.phone("dave", "race", "list").stdout.strip() == "no open invites or races"
        out = relay.phone("dave", "race", "accept", run, check=False)
        assert out.returncode == 65 and "(WB203)" in out.stderr and "expired" in out.stderr, out.stderr
        # Two sweeps at once: the invite is expired once, with one event.
        barrier = threading.Barrier(2)

        def sweep(runner):
            with relay.connect(runner) as conn:
                barrier.wait()
                conn.execute("SELECT relay.sweep()")
        threads = [threading.Thread(target=sweep, args=(r,)) for r in ("carol", "dave")]
        [t.start() for t in threads]
        [t.join() for t in threads]
        assert count(c, "SELECT count(*) FROM relay.run_events(%s) WHERE kind = 'expired'", run) == 1
        assert count(c, "SELECT state FROM relay.my_runs WHERE id = %s", run) == "expired"

        runs = [relay.phone("carol", "race", "invite", "dave").stdout.strip() for _ in range(3)]
        out = relay.phone("carol", "race", "invite", "dave", check=False)
        assert out.returncode == 65 and "(WB104)" in out.stderr, out.stderr
        relay.phone("carol", "race", "cancel", runs[0], "--reason", "wrong shoes")
        relay.phone("dave", "race", "decline", runs[1])
        for gone in runs[:2]:
            out = relay.phone("dave", "race", "accept", gone, check=False)
            assert out.returncode == 65 and "(WB203)" in out.stderr, out.stderr
        refused(lambda: c.execute("SELECT relay.accept(%s)", (runs[2],)), "WB202", "only the invited runner")
        refused(lambda: c.execute("SELECT relay.invite('carol')"), "WB101")
        refused(lambda: c.execute("SELECT relay.invite('relay_admin')"), "WB102", "no runner named relay_admin")
        relay.phone("dave", "race", "accept", runs[2])
        extra = relay.phone("dave", "race", "invite", "carol").stdout.strip()
        refused(lambda: c.execute("SELECT relay.accept(%s)", (extra,)), "WB204", "already in a race")
        relay.phone("carol", "race", "cancel", runs[2], "--reason", "wearable not ready: no GPS fix")
        relay.phone("carol", "race", "decline", extra)
        reason = count(d, "SELECT reason FROM relay.my_runs WHERE id = %s", runs[2])
        assert reason == "wearable not ready: no GPS fix", reason


def test_abandoned(relay):
    """A runner who goes silent is abandoned by the relay after the run's time, with the figures it
    last had, exactly once however many phones sweep; the other side's result stands."""
    with relay.connect("carol") as c, relay.connect("dave") as d:
        run = start_race(relay, "carol", "dave", "--start-in", "10s", "--abandon-after", "5s")
        wait_for_start(c, run)
        snapshot(d, run, "dave", 1, 12.0, 4.0)
        snapshot(c, run, "carol", 1, 14.0, 4.0)
        time.sleep(0.6)
        snapshot(c, run, "carol", 2, 30.0, 9.0)
        c.execute("SELECT relay.finish(%s, 30.0, 9.0, 9.0)", (run,))
        deadline = time.time() + 20 * harness.GUARD
        while count(d, "SELECT state FROM relay.my_runs WHERE id = %s", run) == "accepted":
            assert time.time() < deadline, "the relay never abandoned the silent runner"
            threads = [threading.Thread(target=lambda r=r: relay.connect(r).execute("SELECT relay.sweep()"))
                       for r in ("carol", "dave", "carol")]
            [t.start() for t in threads]
            [t.join() for t in threads]
            time.sleep(0.5)
        events = c.execute("SELECT kind, runner::text, body FROM relay.run_events(%s) WHERE kind IN "
                           "('abandoned', 'result') ORDER BY id", (run,)).fetchall()
        assert [(k, r) for k, r, _ in events] == [("abandoned", "dave"), ("result", "carol")], events
        assert events[0][2]["distance_m"] == 12.0, events[0]
        state, winner = c.execute("SELECT state, winner::text FROM relay.my_runs WHERE id = %s", (run,)).fetchone()
        assert (state, winner) == ("complete", "carol"), (state, winner)


def test_migrations(relay):
    """Migrating again applies nothing; a migration changed after it was applied is refused."""
    out = subprocess.run([PHONE, "relay", "migrate", "--admin-url", relay.admin_url], capture_output=True, text=True)
    assert out.returncode == 0 and "nothing to apply" in out.stdout, out.stdout + out.stderr
    with relay.admin() as admin:
        admin.execute("UPDATE public.relay_migrations SET sha256 = 'edited' WHERE version = 1")
        out = subprocess.run([PHONE, "relay", "migrate", "--admin-url", relay.admin_url], capture_output=True,
                             text=True)
        assert out.returncode == 65 and "was changed after the relay applied it" in out.stderr, out.stderr
        admin.execute("UPDATE public.relay_migrations SET sha256 = %s WHERE version = 1",
                      (json.loads(json.dumps(sha_of_first_migration())),))
    out = subprocess.run([PHONE, "relay", "enrol", "--admin-url", relay.admin_url, "Robert'); DROP"],
                         capture_output=True, text=True)
    assert out.returncode == 64 and "not a runner's name" in out.stderr, out.stderr
    out = subprocess.run([PHONE, "relay", "enrol", "--admin-url", relay.admin_url, "relay_admin"],
                         capture_output=True, text=True)
    assert out.returncode == 65 and "not a runner" in out.stderr, out.stderr


def sha_of_first_migration():
    import hashlib
    import glob
    path = sorted(glob.glob(os.path.join(ROOT, "relay", "migrations", "*.sql")))[0]
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def test_unreachable(relay):
    """A phone whose relay is down gets a clear error and exit 69, never a hang."""
    config = relay.config("alice") + ".down"
    with open(relay.config("alice")) as f, open(config, "w") as g:
        g.write(f.read().replace(f"port = {relay.port}", f"port = {harness.free_port()}"))
    started = time.time()
    out = subprocess.run([PHONE, "race", "list", "--config", config], capture_output=True, text=True, timeout=60)
    assert out.returncode == 69 and "cannot reach the relay at localhost" in out.stderr, out.stderr
    return {"refused_after_s": round(time.time() - started, 2)}


def share(conn, run, route):
    """Shares `route` [(lat, lon, elapsed_s, distance_m)] as docs/relay.md's SQL does; the points stored."""
    lat = [round(p[0] * 1e7) for p in route]
    lon = [round(p[1] * 1e7) for p in route]
    elapsed = [round(p[2] * 10) for p in route]
    distance = [round(p[3] * 10) for p in route]
    return count(conn, "SELECT relay.share_route(%s, %s::integer[], %s::integer[], %s::integer[], %s::integer[])",
                 run, lat, lon, elapsed, distance)


def line_route(points, metres, seconds, lat=52.5, lon=13.4):
    """A straight route north: `points` points over `metres` m in `seconds` s."""
    return [(lat + (metres * i / (points - 1)) / 111_320, lon, seconds * i / (points - 1), metres * i / (points - 1))
            for i in range(points)]


def test_routes(relay):
    """Routes after a race: shared once the race is over for the runner, read by its two runners only
    (a third runner reads nothing, shares nothing and cannot tell a race from none), bounded in size
    and judged as figures are (shape, globe, order, top speed, the relay's clock, the final distance),
    stored once (the same again is harmless, another refused), not taken after the window."""
    with relay.connect("alice") as a, relay.connect("bob") as b, relay.connect("mallory") as m, relay.admin() as admin:
        run = start_race(relay, "alice", "bob", "--distance", "100m", "--start-in", "10s")
        wait_for_start(a, run, after=1)
        good = line_route(50, 40, 12)
        refused(lambda: share(a, run, good), "WB702", "under way")
        a.execute("SELECT relay.report_start(%s, 0)", (run,))
        b.execute("SELECT relay.report_start(%s, 0)", (run,))
        wait_for_start(a, run, after=3)  # 12 s of figures: within 3 s since the start and the 10 s slack
        assert count(a, "SELECT relay.finish(%s, 40, 12, 12)", run) == "accepted"
        # A third runner: the same refusal for this race as for one that does not exist; reads nothing.
        nobody = "00000000-0000-4000-8000-000000000000"
        words = refused(lambda: share(m, run, good), "WB701")
        other = refused(lambda: share(m, nobody, good), "WB701")
        assert words.replace(run, "RUN") == other.replace(nobody, "RUN") == "no race RUN of yours", (words, other)
        refused(lambda: m.execute("SELECT count(*) FROM relay.routes"), "42501", "permission denied")
        refused(lambda: a.execute("INSERT INTO relay.routes (run_id, runner, lat_e7, lon_e7, elapsed_ds, distance_dm) "
                                  "VALUES (%s, 'alice', '{1,2}', '{1,2}', '{0,1}', '{0,1}')", (run,)), "42501")
        limit = count(admin, "SELECT route_points FROM relay.limits")
        bad = {
            "WB704": [good[:1], line_route(limit + 1, 40, 12)],
            "WB706": [[(95.0, 13.4, 0, 0), (95.0, 13.4, 1, 1)]],
            "WB707": [[(52.5, 13.4, 5, 0), (52.5, 13.4, 4, 1)], [(52.5, 13.4, 0, 5), (52.5, 13.4, 1, 4)]],
            "WB708": [[(52.5, 13.4, 0, 0), (52.5, 13.4, 1, 200)]],
            "WB709": [line_route(10, 40, 3600)],
            "WB710": [line_route(10, 200, 12)],
        }
        for code, routes in bad.items():
            for route in routes:
                refused(lambda: share(a, run, route), code)
        refused(lambda: a.execute("SELECT relay.share_route(%s, '{1,2}', '{1}', '{0,1}', '{0,1}')", (run,)), "WB704")
        refused(lambda: a.execute("SELECT relay.share_route(%s, '{1,NULL}', '{1,2}', '{0,1}', '{0,1}')", (run,)), "WB704")
        assert count(admin, "SELECT count(*) FROM relay.routes") == 0, "a refused route was stored"
        assert share(a, run, good) == 50
        assert share(a, run, good) == 50, "the same route again is harmless"
        refused(lambda: share(a, run, line_route(20, 40, 12)), "WB705", "stored already")
        # Bob has not finished: the race is under way for him.
        refused(lambda: share(b, run, good), "WB702")
        got = b.execute("SELECT runner::text, cardinality(lat_e7), distance_dm[50] FROM relay.run_routes(%s)",
                        (run,)).fetchall()
        assert got == [("alice", 50, 400)], got
        assert count(m, "SELECT count(*) FROM relay.run_routes(%s)", run) == 0, "mallory reads a route"
        assert count(b, "SELECT relay.finish(%s, 38, 12.5, 12)", run) == "complete"
        assert share(b, run, line_route(40, 38, 12.5, lon=13.4001)) == 40
        assert count(a, "SELECT count(*) FROM relay.run_routes(%s)", run) == 2
        # The size at the relay of a route at the limit, as the phone would share a long run.
        admin.execute("UPDATE relay.entries SET final_distance_m = 20000 WHERE run_id = %s AND runner = 'alice'", (run,))
        admin.execute("DELETE FROM relay.routes WHERE run_id = %s AND runner = 'alice'", (run,))
        admin.execute("UPDATE relay.runs SET ended_at = start_at + interval '2 hours', start_at = start_at - interval '2 hours' "
                      "WHERE id = %s", (run,))
        admin.execute("UPDATE relay.entries SET ended_at = now() WHERE run_id = %s", (run,))
        long = [(52.5 + 0.02 * math.sin(i / 300), 13.4 + 0.03 * math.cos(i / 300), 1.4 * i, 4.0 * i)
                for i in range(limit)]
        started = time.time()
        assert share(a, run, long) == limit
        took = time.time() - started
        size = count(admin, "SELECT pg_column_size(r.*) FROM relay.routes r WHERE run_id = %s AND runner = 'alice'", run)
        small = count(admin, "SELECT pg_column_size(r.*) FROM relay.routes r WHERE run_id = %s AND runner = 'bob'", run)
        # Past the window: no more routes.
        admin.execute("DELETE FROM relay.routes WHERE run_id = %s AND runner = 'bob'", (run,))
        admin.execute("UPDATE relay.entries SET ended_at = now() - interval '8 days' WHERE run_id = %s", (run,))
        refused(lambda: share(b, run, line_route(40, 38, 12.5)), "WB703", "ended more than")
        print(f"    refusals WB701-WB710 each with its reason; at the relay a {limit}-point route takes {size} bytes "
              f"({size / limit:.1f} a point, shared in {took * 1000:.0f} ms), a 40-point one {small} bytes")


def course_points(metres, step=50.0, lat=52.5, lon=13.4):
    """A course east along a parallel: a point every `step` m, with its distance along it (cm)."""
    n = int(metres // step) + 1
    per_degree = 111_320 * math.cos(math.radians(lat))
    return ([round(lat * 1e7)] * n, [round((lon + i * step / per_degree) * 1e7) for i in range(n)],
            [round(i * step * 100) for i in range(n)])


def invite_on_course(conn, partner, name, lat, lon, cm, turn_cm=(), turn_direction=(), start_in="10 seconds"):
    """A ride (its top speed lets the test's short races cover their course in seconds)."""
    return count(conn, "SELECT relay.invite_on_course(%s, %s, %s::integer[], %s::integer[], %s::integer[], "
                 "%s::integer[], %s::text[], activity => 'ride', lead => %s::interval)", partner, name, list(lat),
                 list(lon), list(cm), list(turn_cm), list(turn_direction), start_in)


def course_message(conn, run, runner, seq, distance, elapsed, course_m, kind="snapshot"):
    conn.execute("INSERT INTO relay.messages (run_id, runner, seq, class, kind, distance_m, elapsed_s, course_m) "
                 "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                 (run, runner, seq, "snapshot" if kind == "snapshot" else "critical", kind, distance, elapsed, course_m))


def test_race_courses(relay):
    """Races on a course: the invite carries the course, judged before anything is made (a refused
    one leaves no run); only the two runners read it (a third runner reads nothing and no table);
    each runner's progress along it is judged against the course and their own distance (a short
    cut is not progress); the result goes to the fastest to the course's end, not the farthest runner."""
    with relay.connect("alice") as a, relay.connect("bob") as b, relay.connect("mallory") as m, relay.admin() as admin:
        lat, lon, cm = course_points(150)
        runs_before = count(admin, "SELECT count(*) FROM relay.runs")
        limit = count(admin, "SELECT course_points FROM relay.limits")
        far = course_points(50 * limit)
        bad = [
            ("WB801", lambda: invite_on_course(a, "bob", "", lat, lon, cm)),
            ("WB801", lambda: invite_on_course(a, "bob", "two\nlines", lat, lon, cm)),
            ("WB801", lambda: invite_on_course(a, "bob", "x" * 65, lat, lon, cm)),
            ("WB802", lambda: invite_on_course(a, "bob", "Ring", lat[:1], lon[:1], cm[:1])),
            ("WB802", lambda: invite_on_course(a, "bob", "Ring", lat, lon[:-1], cm)),
            ("WB802", lambda: invite_on_course(a, "bob", "Ring", far[0], far[1], far[2])),
            ("WB802", lambda: invite_on_course(a, "bob", "Ring", lat, lon, cm, turn_cm=[100], turn_direction=[])),
            ("WB803", lambda: invite_on_course(a, "bob", "Ring", lat, lon, [5] + cm[1:])),
            ("WB803", lambda: invite_on_course(a, "bob", "Ring", lat, lon, [c // 2 for c in cm])),
            ("WB804", lambda: invite_on_course(a, "bob", "Ring", [950_000_000] * len(lat), lon, cm)),
            ("WB805", lambda: invite_on_course(a, "bob", "Ring", lat, lon, cm, turn_cm=[99_999], turn_direction=["left"])),
            ("WB805", lambda: invite_on_course(a, "bob", "Ring", lat, lon, cm, turn_cm=[100], turn_direction=["up"])),
            ("WB102", lambda: invite_on_course(a, "nobody", "Ring", lat, lon, cm)),
        ]
        for code, call in bad:
            refused(call, code)
        assert count(admin, "SELECT count(*) FROM relay.runs") == runs_before, "a refused course made a run"
        assert count(admin, "SELECT count(*) FROM relay.courses") == 0, "a refused course was stored"

        run = str(invite_on_course(a, "bob", "Tiergarten 150", lat, lon, cm, turn_cm=[7500], turn_direction=["left"]))
        assert count(a, "SELECT distance_m FROM relay.my_runs WHERE id = %s", run) == 150.0
        # The invitee reads the course before accepting; a third runner reads nothing, not even the table.
        got = b.execute("SELECT name, cardinality(lat_e7), distance_cm[4], turn_direction, length_m "
                        "FROM relay.run_course(%s)", (run,)).fetchall()
        assert got == [("Tiergarten 150", 4, 15000, ["left"], 150.0)], got
        assert count(m, "SELECT count(*) FROM relay.run_course(%s)", run) == 0, "mallory reads the course"
        refused(lambda: m.execute("SELECT count(*) FROM relay.courses"), "42501", "permission denied")
        refused(lambda: a.execute("UPDATE relay.courses SET length_m = 1"), "42501")
        b.execute("SELECT relay.accept(%s)", (run,))
        wait_for_start(a, run, after=1)
        a.execute("SELECT relay.report_start(%s, 0)", (run,))
        b.execute("SELECT relay.report_start(%s, 0)", (run,))
        # Progress along the course, judged: within its length, and no farther than one has run.
        course_message(a, run, "alice", 1, 10, 4, 9.5)
        refused(lambda: course_message(a, run, "alice", 2, 11, 5, 151.5, kind="split"), "WB612", "150.0 m")
        refused(lambda: course_message(b, run, "bob", 1, 20, 4, 75), "WB613", "farther than the runner has run")
        refused(lambda: course_message(m, run, "alice", 9, 20, 4, 10), "42501", "row-level security")
        course_message(b, run, "bob", 1, 20, 4, 19)
        refused(lambda: b.execute("SELECT relay.finish(%s, 40, 8, 8, 120)", (run,)), "WB613")
        refused(lambda: m.execute("SELECT relay.finish(%s, 40, 8, 8, 20)", (run,)), "WB501", "no race")
        wait_for_start(a, run, after=4)
        # Bob ran farther (a detour), Alice ran the course to its end in less time: Alice wins.
        assert count(a, "SELECT relay.finish(%s, 151, 3.5, 3.5, 149.8)", run) == "accepted"
        assert count(a, "SELECT relay.finish(%s, 151, 3.5, 3.5, 149.8)", run) == "accepted", "a repeat is harmless"
        refused(lambda: a.execute("SELECT relay.finish(%s, 151, 3.5, 3.5, 120)", (run,)), "WB502")
        assert count(b, "SELECT relay.finish(%s, 160, 4, 4, 90)", run) == "complete"
        state, winner = a.execute("SELECT state, winner::text FROM relay.my_runs WHERE id = %s", (run,)).fetchone()
        assert (state, winner) == ("complete", "alice"), (state, winner)
        result = b.execute("SELECT body FROM relay.run_events(%s) WHERE kind = 'result'", (run,)).fetchone()[0]
        along = {e["runner"]: e["course_m"] for e in result["entries"]}
        assert along == {"alice": 149.8, "bob": 90.0}, result

        # From the phone: a course added from a file and the invite on it; the relay holds the very
        # points and distances the phone keeps, and its length is the race's distance.
        gpx = os.path.join(relay.dir, "ring.gpx")
        harness.write_gpx_track(gpx, "Ring", [(52.51 + 0.0001 * math.sin(i / 9), 13.37 + 0.00003 * i)
                                              for i in range(300)])
        relay.phone("alice", "course", "add", gpx)
        kept = json.loads(relay.phone("alice", "course", "list", "--json").stdout.splitlines()[0])
        invited = relay.phone("alice", "race", "invite", "bob", "--course", "Ring", "--start-in", "20s").stdout.strip()
        held = b.execute("SELECT name, cardinality(lat_e7), length_m FROM relay.run_course(%s)", (invited,)).fetchone()
        assert held[0] == "Ring" and held[1] == kept["points"] and abs(held[2] - kept["length_m"]) <= 0.05, (held, kept)
        assert count(b, "SELECT distance_m FROM relay.my_runs WHERE id = %s", invited) == held[2]
        refused_both = relay.phone("alice", "race", "invite", "bob", "--course", "Ring", "--distance", "5km", check=False)
        assert refused_both.returncode != 0 and "--course and --distance" in refused_both.stderr, refused_both.stderr
        unknown = relay.phone("alice", "race", "invite", "bob", "--course", "Nowhere", check=False)
        assert unknown.returncode == 64 and 'no course named "Nowhere"' in unknown.stderr, unknown.stderr
        a.execute("SELECT relay.cancel(%s)", (invited,))
        # A race without a course takes no course_m; without a final course_m the newest one counts.
        plain = start_race(relay, "alice", "bob", "--distance", "100m", "--start-in", "10s")
        refused(lambda: course_message(a, plain, "alice", 1, 10, 1, 9), "WB612", "no course")
        refused(lambda: a.execute("SELECT relay.finish(%s, 10, 1, 1, 9)", (plain,)), "WB612", "no course")
        a.execute("SELECT relay.cancel(%s)", (plain,))
        lat2, lon2, cm2 = course_points(100)
        second = str(invite_on_course(b, "alice", "Short", lat2, lon2, cm2))
        a.execute("SELECT relay.accept(%s)", (second,))
        wait_for_start(a, second, after=3)
        course_message(a, second, "alice", 1, 60, 3, 55)
        course_message(b, second, "bob", 1, 90, 3, 88)
        assert count(a, "SELECT relay.finish(%s, 60, 3, 3)", second) == "accepted"
        assert count(b, "SELECT relay.finish(%s, 90, 3, 3)", second) == "complete"
        winner = count(a, "SELECT winner::text FROM relay.my_runs WHERE id = %s", second)
        assert winner == "bob", winner
        size = count(admin, "SELECT pg_column_size(c.*) FROM relay.courses c WHERE run_id = %s", run)
        # A course at the limit, as the phone would send a long one.
        big = course_points(40 * (limit - 1), step=40)
        started = time.time()
        third = str(invite_on_course(a, "bob", "Long", *big))
        took = time.time() - started
        big_size = count(admin, "SELECT pg_column_size(c.*) FROM relay.courses c WHERE run_id = %s", third)
        a.execute("SELECT relay.cancel(%s)", (third,))
        print(f"    refusals WB801-WB805, WB612, WB613 each with its reason, nothing stored; a 4-point course takes "
              f"{size} bytes at the relay, a {limit}-point one {big_size} ({big_size / limit:.1f} a point, "
              f"invited in {took * 1000:.0f} ms)")


def shift_nmea(source, target, first_fix_at):
    """The recording with every time and date moved so that its first fix is at `first_fix_at`
    (Unix s), checksums recomputed: a wearable's GPS time is then the relay's time, as outdoors."""
    import datetime
    lines = open(source).read().splitlines()
    first = next(l for l in lines if l.startswith("$GPRMC"))
    f = first.split(",")
    base = datetime.datetime.strptime(f[9] + f[1], "%d%m%y%H%M%S.%f").replace(tzinfo=datetime.timezone.utc)
    delta = datetime.datetime.fromtimestamp(first_fix_at, datetime.timezone.utc) - base
    day = base.strftime("%d%m%y")
    out = []
    for line in lines:
        body = line[1:line.index("*")] if "*" in line else line[1:]
        fields = body.split(",")
        kind = fields[0][2:]
        if kind in ("RMC", "GGA", "GST") and fields[1]:
            date = fields[9] if kind == "RMC" else day
            moment = datetime.datetime.strptime(date + fields[1], "%d%m%y%H%M%S.%f").replace(
                tzinfo=datetime.timezone.utc) + delta
            fields[1] = moment.strftime("%H%M%S.") + f"{moment.microsecond // 10000:02d}"
            if kind == "RMC":
                day = fields[9]
                fields[9] = moment.strftime("%d%m%y")
        body = ",".join(fields)
        checksum = 0
        for char in body:
            checksum ^= ord(char)
        out.append(f"${body}*{checksum:02X}")
    with open(target, "w") as f:
        f.write("\r\n".join(out) + "\r\n")


def alice_wearable(relay):
    """Alice's phone with [relay] and her wearable waiting for the race (no session of its own)."""
    setup = harness.Setup()
    tls = relay.tls
    setup.write_phone_config(extra=f'[relay]\nhost = "localhost"\nport = {relay.port}\nrunner = "alice"\n'
                                   f'ca = "{tls}/ca.crt"\ncertificate = "{tls}/alice.crt"\nkey = "{tls}/alice.key"\n')
    with open(setup.wear_config) as f:
        config = f.read().replace("autostart = true", "autostart = false")
    with open(setup.wear_config, "w") as f:
        f.write(config)
    return setup


def race_orders(setup):
    """The race's orders as the phone handed them and the wearable answered: (id, ok, message), in
    the order they were queued (none while the phone's inbox is still being created)."""
    try:
        return harness.rows(f"{setup.phone_dir}/wearbridge-phone.sqlite",
                            "SELECT id, ok, message FROM command WHERE kind = 'race' ORDER BY issued_at, rowid")
    except sqlite3.Error:
        return []


def test_phone_pump(relay):
    """A real wearable (gpsd fed by gpsfake, its recording moved to the race's start) races through
    its real phone against a participant written in Python from docs/relay.md's SQL. Its receiver has
    no fix yet when the countdown is handed to it: refused as not ready, handed again, taken. The phone is
    killed -9 and the relay stopped hard mid-race; afterwards the wearable's race events are at the
    relay once each, in order, its start offset is reported, its final figures are its data log's,
    and the phone holds the partner's events and the relay's, once each, with the partner's newest
    snapshot."""
    setup = alice_wearable(relay)
    import race_day
    try:
        with relay.connect("bob") as b:
            run = start_race(relay, "alice", "bob", "--start-in", "20s", "--distance", "400m")
            start_at = count(b, "SELECT start_at FROM relay.my_runs WHERE id = %s", run).timestamp()
            recording = os.path.join(setup.dir, "race.nmea")
            # The wearable was just switched on: its receiver searches for the first 8 s, so the
            # countdown's first order is refused (not ready) and handed again until it is taken.
            per_epoch, _ = race_day.race_recording(harness.RECORDING, recording, start_at,
                                                   preroll=int(start_at - time.time()), cold=8)
            setup.gpsfake(cycle=f"{1 / per_epoch:.4f}", recording=recording)
            wearable = setup.wearable()
            phone = setup.phone()
            bob_seq, bob_critical = 0, []

            def bob_says(kind="snapshot", critical=False, paused=False):
                nonlocal bob_seq
                bob_seq += 1
                elapsed = max(0.0, time.time() - start_at)
                if b.closed:
                    return  # the relay is down: this snapshot is lost, the next has the next seq
                try:
                    b.execute("INSERT INTO relay.messages (run_id, runner, seq, class, kind, distance_m, elapsed_s, "
                              "paused) VALUES (%s, 'bob', %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                              (run, bob_seq, "critical" if critical else "snapshot", kind, 3.1 * elapsed, elapsed,
                               paused))
                except psycopg.Error as error:
                    # A loaded machine can bunch two of Bob's snapshots: the rate limit refuses the
                    # second, as it would a phone's, and the next one carries newer figures.
                    if critical or error.diag.sqlstate != "WB606":
                        raise
                if critical:
                    bob_critical.append((bob_seq, kind))

            harness.wait_for(lambda: any(ok for (_, ok, _) in race_orders(setup)), max(1.0, start_at - time.time()),
                             "the wearable to take the race before its start")
            orders = race_orders(setup)
            assert orders[0][1] == 0 and "not ready" in orders[0][2], orders
            assert [ok for (_, ok, _) in orders].count(1) == 1 and orders[-1][1] == 1, orders
            assert all(i.startswith(f"race-{run}-again-") for (i, _, _) in orders[1:]), orders
            b.execute("SELECT relay.report_start(%s, 35)", (run,))
            faults = {8: "kill phone", 10: "start phone", 14: "stop relay", 17: "start relay"}
            for second in range(26):
                time.sleep(max(0.0, start_at + second + 1 - time.time()))
                bob_says()
                if second == 5:
                    bob_says("paused", critical=True, paused=True)
                if second == 9:
                    bob_says("resumed", critical=True)
                fault = faults.get(second)
                if fault == "kill phone":
                    harness.kill9(phone)
                elif fault == "start phone":
                    phone = setup.phone()
                elif fault == "stop relay":
                    b.close()
                    relay.stop_hard()
                elif fault == "start relay":
                    relay.restart()
                    b = relay.connect("bob")
            out = harness.run([PHONE, "end", "--config", setup.phone_config, "--timeout", "60"])
            assert "ACK" in out.stdout, out.stdout

            # The wearable's final figures reach the relay, from its data log.
            harness.wait_for(lambda: count(b, "SELECT outcome FROM relay.run_entries(%s) WHERE "
                                              "runner = 'alice'", run) == "finished", 60, "alice's finish at the relay")
            distance, elapsed, moving = setup.wear_query("SELECT distance_m, elapsed_s, moving_s FROM session")[0]
            final = b.execute("SELECT final_distance_m, final_elapsed_s, final_moving_s, start_offset_ms FROM "
                              "relay.run_entries(%s) WHERE runner = 'alice'", (run,)).fetchone()
            assert abs(final[0] - distance) < 1e-6 and abs(final[1] - elapsed) < 1e-6, (final, distance, elapsed)
            # The wearable counted down to the instant on its race clock: the offset it reported is
            # where its session's start anchor (GPS time) puts it, and within a second.
            started_at = setup.wear_query("SELECT started_at FROM session")[0][0]
            offset = (started_at - start_at) * 1000
            assert final[3] is not None and abs(final[3] - offset) <= 250 and abs(final[3]) <= 1000, \
                f"start offset {final[3]} ms, {offset:.0f}"
            print(f"    alice: {distance:.1f} m in {elapsed:.1f} s from her data log; start offset {final[3]} ms; "
                  f"the race taken at its order {len(orders)} ({orders[0][2]!r} first)")

            # The wearable's race events at the relay: each once, in order, as the phone received them.
            inbox = harness.rows(f"{setup.phone_dir}/wearbridge-phone.sqlite",
                                 "SELECT kind FROM inbox WHERE kind IN ('race_started', 'session_paused', "
                                 "'session_resumed', 'split') ORDER BY seq")
            expected = [{"race_started": "started", "session_paused": "paused", "session_resumed": "resumed",
                         "split": "split"}[k] for (k,) in inbox]
            at_relay = [k for (k,) in b.execute("SELECT kind FROM relay.run_messages(%s, 'alice') "
                                               "WHERE class = 'critical' ORDER BY seq", (run,))]
            assert at_relay == expected, (at_relay, expected)
            snapshots = count(b, "SELECT count(*) FROM relay.run_messages(%s, 'alice') "
                                 "WHERE class = 'snapshot'", run)
            assert snapshots >= 5, f"only {snapshots} snapshots of alice's reached the relay"

            # Bob finishes: the relay decides from both final figures.
            b.execute("SELECT relay.finish(%s, %s, %s, %s)", (run, 3.1 * 26, 26.0, 25.0))
            events = [(i, k) for (i, k) in b.execute("SELECT id, kind FROM relay.run_events(%s) ORDER BY id",
                                                     (run,))]

            # The phone holds bob's events once each, in order, his newest snapshot, and the relay's events.
            def phone_has_everything():
                rows = harness.rows(f"{setup.phone_dir}/wearbridge-phone.sqlite",
                                    "SELECT source, key, kind, class FROM partner_inbox WHERE run = ? ORDER BY source, key",
                                    (run,))
                got_critical = [(k, kind) for (src, k, kind, cls) in rows if src == "message" and cls == "critical"]
                got_events = [(k, kind) for (src, k, kind, cls) in rows if src == "event"]
                newest = [k for (src, k, kind, cls) in rows if src == "message" and cls == "snapshot"]
                return got_critical == bob_critical and got_events == events and newest == [bob_newest] and rows
            bob_newest = count(b, "SELECT max(seq) FROM relay.run_messages(%s, 'bob') "
                                  "WHERE class = 'snapshot'", run)
            harness.wait_for(phone_has_everything, 30, "the phone to hold bob's events, snapshot and the relay's events")
            lines = harness.run([PHONE, "race", "status", "--json", "--config", setup.phone_config]).stdout
            status = next(r for r in map(json.loads, lines.splitlines()) if r["run"] == run)
            assert status["refused"] == [] and status["queued"] == 0, status
            assert status["partner_snapshot"]["seq"] == bob_newest, status
            log = setup.log("phone.log")
            assert "race: result" in log, "the phone logs the result"
            # ... and on to the wearable: bob's pause, resume and finish, each applied once, in order.
            told = lambda: [next(w.split("=")[1] for w in line.split() if w.startswith("what="))
                            for line in setup.log("wear.log").splitlines() if "event=partner_event" in line]
            wanted = [kind for (_, kind) in bob_critical] + ["finished"]
            harness.wait_for(lambda: told() == wanted, 30, f"the wearable to apply {wanted} (has {told()})")
            print(f"    the phone holds bob's {len(bob_critical)} events, {len(events)} relay events; "
                  f"{snapshots} of alice's snapshots at the relay")
    finally:
        harness.stop_all()


def recording_course(source, epochs_count=200, every=20.0):
    """The first `epochs_count` epochs of a recording's RMC positions as a course in the relay's
    units: a point every `every` m or so, distances along it in cm (the straight lines between the
    kept points: no shorter than their chords)."""
    points = []
    for line in open(source).read().splitlines():
        fields = line.split(",")
        if fields[0].endswith("RMC") and len(fields) > 6 and fields[2] == "A":
            lat = int(fields[3][:2]) + float(fields[3][2:]) / 60
            lon = int(fields[5][:3]) + float(fields[5][3:]) / 60
            points.append((lat if fields[4] == "N" else -lat, lon if fields[6] == "E" else -lon))
            if len(points) >= epochs_count:
                break

    def metres(a, b):
        mean = math.radians((a[0] + b[0]) / 2)
        return 6_371_008.8 * math.hypot(math.radians(b[0] - a[0]), math.radians(b[1] - a[1]) * math.cos(mean))
    kept = [points[0]]
    for point in points[1:]:
        if metres(kept[-1], point) >= every:
            kept.append(point)
    cm = [0]
    for a, b in zip(kept, kept[1:]):
        cm.append(cm[-1] + math.ceil(metres(a, b) * 100.5))  # a half per cent over the sphere's chord
    return [round(p[0] * 1e7) for p in kept], [round(p[1] * 1e7) for p in kept], cm


def test_course_race(relay):
    """A race on a course between a real wearable and a participant in SQL: Bob invites Alice on a
    course (her park's line); her phone takes the course from the relay as a stranger's, keeps it and
    sends it to her wearable before the countdown's order names it; her session follows it and her
    distance along it reaches the relay with every snapshot; Bob runs farther but mostly off the
    course: her wearable puts her in the lead along it, and the relay gives her the race."""
    import race_day
    alice = race_day.Runner(relay, "alice")
    try:
        with relay.connect("bob") as b:
            lat, lon, cm = recording_course(harness.RECORDING)
            run = str(count(b, "SELECT relay.invite_on_course('alice', 'Park line', %s::integer[], %s::integer[], "
                               "%s::integer[], lead => '45 seconds')", lat, lon, cm))
            relay.phone("alice", "race", "accept", run[:8])
            start_at = count(b, "SELECT start_at FROM relay.my_runs WHERE id = %s", run).timestamp()
            shown = json.loads(relay.phone("alice", "race", "show", run, "--json").stdout)
            assert shown["course"]["name"] == "Park line" and shown["course"]["points"] == len(lat), shown["course"]
            alice.run_alone(harness.RECORDING, start_at)
            alice.phone = alice.setup.phone()
            harness.wait_for(lambda: any(ok for (_, ok, _) in race_orders(alice.setup)),
                             max(1.0, start_at - time.time()), "the wearable to take the race on its course")
            kept = alice.setup.wear_query("SELECT name FROM course")
            assert kept == [("Park line",)], kept
            phone_courses = [json.loads(line) for line in harness.run(
                [PHONE, "course", "list", "--json", "--config", alice.setup.phone_config]).stdout.splitlines()]
            assert [c["name"] for c in phone_courses] == ["Park line"] and phone_courses[0]["source"].startswith(
                "race "), phone_courses
            orders = race_orders(alice.setup)
            b.execute("SELECT relay.report_start(%s, 0)", (run,))
            seq = 0
            for second in range(1, 31):
                race_day.sleep_until(start_at + second)
                seq += 1
                try:
                    b.execute("INSERT INTO relay.messages (run_id, runner, seq, class, kind, distance_m, elapsed_s, "
                              "course_m) VALUES (%s, 'bob', %s, 'snapshot', 'snapshot', %s, %s, %s) "
                              "ON CONFLICT DO NOTHING", (run, seq, 4.0 * second, float(second), 1.0 * second))
                except psycopg.Error as error:
                    if error.diag.sqlstate != "WB606":
                        raise
            status = json.loads(harness.run([f"{harness.BIN}/wearbridge", "ctl", "status", "--json", "--config",
                                             alice.setup.wear_config]).stdout)["status"]
            race = status["race"]
            assert race["course"] == "Park line" and status["course"]["name"] == "Park line", status
            # Bob's figures along the course reached her wearable: his 30 m or so, not his 120 m.
            assert race["partner_distance_m"] is not None and race["partner_distance_m"] <= 32, race
            assert race["gap"] > 20, race
            # And in time: she passed his 30 m along it within her first 15 s, so she leads by over 10 s.
            assert race["gap_s"] is not None and 10 < race["gap_s"] < 30, race
            leads = alice.events("race_lead_taken", "race_lead_lost")
            assert [k for (k, _, _) in leads] == ["race_lead_taken"], leads
            # Her distance along the course at the relay, with every snapshot: forward, no farther than she ran.
            along = b.execute("SELECT distance_m, course_m FROM relay.run_messages(%s, 'alice') "
                              "WHERE class = 'snapshot' ORDER BY seq", (run,)).fetchall()
            assert len(along) >= 5 and all(c is not None for (_, c) in along), along
            assert all(c <= d * 1.02 + 50 for (d, c) in along), along
            assert along[-1][1] > 40, along
            done = status["course"]["done_m"]
            out = harness.run([PHONE, "end", "--config", alice.setup.phone_config, "--timeout", "60"])
            assert "ACK" in out.stdout, out.stdout
            harness.wait_for(lambda: count(b, "SELECT outcome FROM relay.run_entries(%s) WHERE runner = 'alice'",
                                           run) == "finished", 60, "alice's finish at the relay")
            b.execute("SELECT relay.finish(%s, 122, 30, 30)", (run,))
            result = b.execute("SELECT body FROM relay.run_events(%s) WHERE kind = 'result'", (run,)).fetchone()[0]
            courses = {e["runner"]: e["course_m"] for e in result["entries"]}
            distances = {e["runner"]: e["distance_m"] for e in result["entries"]}
            assert result["winner"] == "alice" and distances["bob"] > distances["alice"], result
            assert courses["alice"] > courses["bob"], result
            # Her final figures carried where her session stood on the course when it ended.
            with relay.admin() as admin:
                final = admin.execute("SELECT final_course_m FROM relay.entries WHERE run_id = %s AND runner = 'alice'",
                                      (run,)).fetchone()[0]
            assert final is not None and done - 1 <= final <= done + 15, (final, done)
            lines = harness.run([PHONE, "race", "status", "--json", "--config", alice.setup.phone_config]).stdout
            held = next(r for r in map(json.loads, lines.splitlines()) if r["run"] == run)
            assert held["course"] == "Park line" and held["refused"] == [], held
            # Her race history draws the course under the routes.
            import xml.etree.ElementTree as ElementTree
            from browser import http

            def course_drawn():
                status, svg, _ = http(alice.dashboard + f"/api/races/{run}/map.svg")
                if status != 200:
                    return None
                ns = "{http://www.w3.org/2000/svg}"
                lines = ElementTree.fromstring(svg).findall(f"{ns}polyline")
                return dict(lines[0].attrib) if lines and lines[0].get("class") == "course" else None
            drawn = harness.wait_for(course_drawn, 30, "the course on her race's map")
            assert drawn["data-course"] == "Park line" and int(drawn["data-points"]) == phone_courses[0]["points"], drawn
            print(f"    the course ({len(lat)} points, {cm[-1] / 100:.0f} m) kept on her phone and wearable before "
                  f"the order ({len(orders)} handed); after 30 s she led by {race['gap']:.0f} m, "
                  f"{race['gap_s']:.0f} s along it "
                  f"(bob {race['partner_distance_m']:.0f} m along, 120 m run); at the relay {len(along)} snapshots "
                  f"with her distance along it (last {along[-1][1]:.1f} m of {along[-1][0]:.1f} m run); "
                  f"result: alice {courses['alice']:.1f} m along against bob's {courses['bob']:.1f} m "
                  f"(he ran {distances['bob']:.0f} m, she {distances['alice']:.0f} m); her wearable {done:.1f} m along "
                  f"at 30 s, {final:.1f} m in her final figures; the course drawn under the routes on her race's map")
    finally:
        harness.stop_all()


def test_never_ready(relay):
    """A wearable whose receiver never finds a fix: its phone hands it the countdown again and again
    and, shortly before the start (RelayPump.lastHanding, 3 s), cancels the race for both with the
    wearable's reason; the partner sees it cancelled, never started."""
    setup = alice_wearable(relay)
    try:
        with relay.connect("bob") as b:
            run = start_race(relay, "alice", "bob", "--start-in", "15s")
            start_at = count(b, "SELECT start_at FROM relay.my_runs WHERE id = %s", run).timestamp()
            import race_day
            recording = os.path.join(setup.dir, "race.nmea")
            preroll = int(start_at - time.time()) + 5
            per_epoch, _ = race_day.race_recording(harness.RECORDING, recording, start_at + 5, preroll=preroll,
                                                   cold=preroll)
            setup.gpsfake(cycle=f"{1 / per_epoch:.4f}", recording=recording)
            setup.wearable()
            setup.phone()
            harness.wait_for(lambda: count(b, "SELECT state FROM relay.my_runs WHERE id = %s", run) != "accepted",
                             start_at - time.time() + 10, "the race's cancel")
            state, reason, ended = b.execute("SELECT state, reason, ended_at FROM relay.my_runs WHERE id = %s",
                                             (run,)).fetchone()
            assert state == "cancelled" and "not ready: no GPS fix yet" in reason, (state, reason)
            before = start_at - ended.timestamp()
            assert 0 < before <= 3.0 + 1.0, f"cancelled {before:.1f} s before the start"
            orders = race_orders(setup)
            assert len(orders) >= 3 and not any(ok for (_, ok, _) in orders), orders
            started = count(b, "SELECT count(*) FROM relay.run_entries(%s) WHERE start_offset_ms IS NOT NULL",
                            run)
            assert started == 0, started
            print(f"    refused {len(orders)} times ({orders[-1][2]!r}); cancelled for both {before:.1f} s before "
                  f"the start: {reason!r}")
    finally:
        harness.stop_all()


def test_two_wearables(relay):
    """A whole race between two real wearables, each with its own gpsd, gpsfake recording and phone:
    invite, accept, the countdown spoken on both, both sessions started at the agreed instant by GPS
    time, lead changes announced where the recordings' own Doppler says they happen (within the
    hysteresis), the partner's pause heard, faults (kill -9 of a phone and of a wearable, the relay
    stopped hard and restarted), the partner's events applied once each and in order on both
    wearables, "partner finished" heard once, and the result decided from the final figures. Bob's
    wearable is killed -9 during the countdown and still starts on time. Alice's
    phone reaches the relay through a fault proxy that cuts the connection three times."""
    import race_day
    proxy = harness.FaultProxy(relay.port)  # between Alice's phone and the relay
    alice, bob = race_day.Runner(relay, "alice", relay_port=proxy.port), race_day.Runner(relay, "bob")
    settings = dict(margin=5, hold=10)  # RaceSettings' defaults: the wearable judges with these
    try:
        with relay.connect("alice") as conn:
            run = start_race(relay, "alice", "bob", "--start-in", "55s", "--distance", "1km")
            start_at = count(conn, "SELECT start_at FROM relay.my_runs WHERE id = %s", run).timestamp()
            race_day.set_off(start_at, race_day.course(alice, bob))
            # Bob's wearable dies during the countdown and comes back: his phone hands it the race
            # again on its reconnection, and it starts on time all the same.
            race_day.sleep_until(start_at - 22)
            harness.kill9(bob.wearable)
            race_day.sleep_until(start_at - 19)
            bob.wearable = bob.setup.wearable()
            expected = {"alice": race_day.lead_changes(alice.profile, bob.profile, **settings),
                        "bob": race_day.lead_changes(bob.profile, alice.profile, **settings)}
            faults = {15: ("kill", bob, "phone"), 20: ("start", bob, "phone"), 27: ("cut",), 38: ("stop relay",),
                      45: ("start relay",), 55: ("cut",), 62: ("kill", alice, "wearable"),
                      66: ("start", alice, "wearable"), 80: ("cut",)}
            partner_states = []
            for second in range(8, 106):
                time.sleep(max(0.0, start_at + second - time.time()))
                fault = faults.get(second, ())
                if fault and fault[0] == "cut":
                    proxy.cut()
                elif fault and fault[0] == "kill":
                    harness.kill9(getattr(fault[1], fault[2]))
                elif fault and fault[0] == "start":
                    runner = fault[1]
                    if fault[2] == "phone":
                        runner.phone = runner.setup.phone()
                    else:
                        runner.wearable = runner.setup.wearable()
                elif fault and fault[0] == "stop relay":
                    conn.close()
                    relay.stop_hard()
                elif fault and fault[0] == "start relay":
                    relay.restart()
                    conn = relay.connect("alice")
                if second % 3 == 0 and second not in range(62, 70):
                    out = harness.run([f"{harness.BIN}/wearbridge", "ctl", "status", "--json", "--config",
                                       alice.setup.wear_config], check=False).stdout
                    try:
                        reply = json.loads(out)
                        race = (reply.get("status") or reply).get("race") or {}
                        partner_states.append((second, race.get("partner_state"), race.get("partner_link")))
                    except (ValueError, IndexError):
                        pass
            for runner in (alice, bob):
                out = harness.run([PHONE, "end", "--config", runner.setup.phone_config, "--timeout", "60"])
                assert "ACK" in out.stdout, out.stdout
            try:
                harness.wait_for(lambda: count(conn, "SELECT state FROM relay.my_runs WHERE id = %s", run) != "accepted",
                                 90, "the relay's result")
            except AssertionError:
                # What each phone was doing: its pump's last words say why no result came.
                for runner in (alice, bob):
                    print(f"    {runner.name}'s phone, its log's last lines:")
                    for line in runner.setup.log("phone.log").splitlines()[-20:]:
                        print(f"      {line}")
                raise

            # Both started at the agreed instant: by their race clocks (reported), and as each phone
            # saw it (when the start message reached it, by this machine's clock). The GPS time the
            # feed gives lags this machine's clock by gpsfake's own start-up and pace (0.6 s on one
            # machine, 1.1 s on another, 2.2 s beside the suite's builds), measured from each
            # wearable's fixes (GPS time against the monotonic receive instant, which this process's
            # clock reads too); the start message must not come before the instant the runner's GPS
            # time said "start" (a second's tolerance: the lag is a median). How long after it came
            # is the delivery's latency, a figure, not a check (load stretches it).
            offsets = dict(conn.execute("SELECT runner, start_offset_ms FROM relay.run_entries(%s)",
                                        (run,)).fetchall())
            outside = {runner.name: round(1000 * (harness.rows(
                f"{runner.setup.phone_dir}/wearbridge-phone.sqlite",
                "SELECT min(received_at) FROM inbox WHERE kind = 'session_started'")[0][0] - start_at))
                for runner in (alice, bob)}
            wall = time.time() - time.monotonic()
            lags = {}
            for runner in (alice, bob):
                fixes = harness.rows(f"{runner.setup.wear_dir}/wearbridge.sqlite",
                                     "SELECT time, received FROM fix WHERE time BETWEEN ? AND ? AND received IS NOT NULL",
                                     (start_at, start_at + 30))
                lag = sorted(received + wall - gps for gps, received in fixes)
                assert lag, f"{runner.name}: no fix after the start"
                lags[runner.name] = round(1000 * lag[len(lag) // 2])
            print(f"    start offsets: reported {offsets} ms; the start message at each phone {outside} ms; "
                  f"the feed's GPS time behind this machine's clock {lags} ms")
            assert all(o is not None and abs(o) <= 1000 for o in offsets.values()), offsets
            assert all(lag >= 0 for lag in lags.values()), f"GPS time ahead of this machine's clock: {lags}"
            assert all(outside[name] - lags[name] >= -1000 for name in outside), \
                f"a start message before the runner's GPS time said start: {outside} against {lags}"

            # The result from the final figures, which are each wearable's data log.
            state, winner = conn.execute("SELECT state, winner FROM relay.my_runs WHERE id = %s", (run,)).fetchone()
            finals = dict(conn.execute("SELECT runner, final_distance_m FROM relay.run_entries(%s)",
                                       (run,)).fetchall())
            for runner in (alice, bob):
                logged = runner.setup.wear_query("SELECT distance_m FROM session")[0][0]
                assert abs(finals[runner.name] - logged) < 1e-6, (runner.name, finals, logged)
            assert state == "complete" and winner == max(finals, key=finals.get), (state, winner, finals)
            print(f"    result: {winner} wins, {finals}")

            worn_leads = {}
            for runner, partner in ((alice, bob), (bob, alice)):
                # Lead changes where the recordings' Doppler puts them, each within the hysteresis.
                leads = [(k, t - start_at) for (k, t, _) in runner.events("race_lead_taken", "race_lead_lost")]
                wanted = expected[runner.name]
                got = [(round(at), "me" if k == "race_lead_taken" else "partner") for (k, at) in leads]
                worn_leads[runner.name] = got
                print(f"    {runner.name}: lead changes {got}, by the Doppler ground truth {wanted}")
                assert len(got) == len(wanted), (got, wanted)
                for (at, side), (truth, truth_side) in zip(got, wanted):
                    assert side == truth_side and truth - 3 <= at <= truth + 8, (got, wanted)
                # The partner's events: once each, in order, and "finished" heard once.
                relayed = [k for (k,) in conn.execute(
                    "SELECT kind FROM relay.run_messages(%s, %s) WHERE kind IN ('paused', 'resumed', "
                    "'split') ORDER BY seq", (run, partner.name))]
                harness.wait_for(lambda: len(runner.commands("partner_event")) >= len(relayed) + 1, 30,
                                 f"{partner.name}'s finish on {runner.name}'s wearable")
                time.sleep(1)  # a second copy, if there were one, would come now
                applied = runner.commands("partner_event")
                ids = [i for (i, _) in applied]
                assert len(ids) == len(set(ids)), f"a partner event applied twice: {ids}"
                seqs = [int(i.rsplit("-", 1)[1]) for i in ids]
                assert seqs == list(range(1, len(seqs) + 1)), seqs
                journal = [line for line in runner.journal("partner_event")]
                assert len(journal) == len(ids), (len(journal), ids)
                kinds = [next(w.split("=")[1] for w in line.split() if w.startswith("what=")) for line in journal]
                assert kinds == relayed + ["finished"], (kinds, relayed)
                spoken = runner.spoken()
                finished = [t for t in spoken if t.startswith(f"{partner.name} finished in")]
                assert len(finished) == 1, spoken
                for call in ("Starting in 30 seconds", "Starting in 10 seconds", "3.", "Go."):
                    assert any(t.startswith(call) for t in spoken), (call, spoken)
                print(f"    {runner.name}: {len(ids)} partner events once each ({', '.join(kinds)}); heard "
                      f"{len(spoken)} cues, e.g. {[t for t in spoken if partner.name in t][:3]}")
            # Bob's stop: Alice's wearable shows him paused, never lost, while he stands.
            during = [(s, st, link) for (s, st, link) in partner_states if 45 <= s <= 85]
            assert any(st == "paused" for (_, st, _) in during), partner_states
            lost = [entry for entry in during if entry[1] == "paused" and entry[2] == "lost"]
            assert "Lost bob." not in alice.spoken(), alice.spoken()
            print(f"    alice saw bob: {sorted(set(st for (_, st, _) in partner_states if st))}; "
                  f"link lost while paused at {len(lost)} of {len(during)} looks")

            # After the race each phone shares its runner's route (built from the backfilled record)
            # and holds the partner's; both reach the dashboard's race history as one map.
            check_routes(relay, run, (alice, bob), finals, winner, worn_leads)
    finally:
        harness.stop_all()


def check_routes(relay, run, runners, finals, winner, worn_leads):
    """Both routes at the relay and on both phones, read by the two runners only; each phone's race
    history lists the race and draws both routes with the lead's changes where the wearables heard them."""
    import xml.etree.ElementTree as ElementTree
    from browser import http
    started = time.time()
    for runner in runners:
        held = lambda: [r for (r,) in harness.rows(f"{runner.setup.phone_dir}/wearbridge-phone.sqlite",  # noqa: E731
                        "SELECT runner FROM relay_route WHERE run = ? AND route IS NOT NULL ORDER BY runner", (run,))]
        harness.wait_for(lambda: held() == ["alice", "bob"], 90, f"both routes on {runner.name}'s phone")
    took = time.time() - started
    with relay.connect("alice") as a, relay.connect("mallory") as m, relay.admin() as admin:
        at_relay = a.execute("SELECT runner::text, cardinality(lat_e7), distance_dm[cardinality(distance_dm)], "
                             "elapsed_ds[cardinality(elapsed_ds)] FROM relay.run_routes(%s)", (run,)).fetchall()
        sizes = dict(admin.execute("SELECT runner::text, pg_column_size(r.*) FROM relay.routes r WHERE run_id = %s",
                                   (run,)).fetchall())
        assert count(m, "SELECT count(*) FROM relay.run_routes(%s)", run) == 0, "mallory reads a route"
        refused(lambda: m.execute("SELECT relay.share_route(%s, '{1,2}', '{1,2}', '{0,1}', '{0,1}')", (run,)), "WB701")
    assert [r[0] for r in at_relay] == ["alice", "bob"], at_relay
    fixes = {}
    for runner in runners:
        fixes[runner.name] = runner.setup.wear_query("SELECT count(*) FROM fix WHERE verdict = 'accepted'")[0][0]
    for name, points, decimetres, deciseconds in at_relay:
        # The route ends where the runner's own distance ended: the data log's, replayed on the phone.
        assert abs(decimetres / 10 - finals[name]) <= 0.1, (name, decimetres, finals)
        assert 2 <= points < fixes[name], (name, points, fixes[name])
    print(f"    routes shared {took:.1f} s after the result; at the relay (points, bytes): "
          f"{[(n, p, sizes[n]) for (n, p, _, _) in at_relay]} from {fixes} accepted fixes; mallory reads none")
    for runner in runners:
        status, body, _ = http(runner.dashboard + "/api/races")
        assert status == 200, (status, body)
        race = next(r for r in body["races"] if r["run"] == run)
        assert race["winner"] == winner and race["state"] == "complete", race
        assert race["mine"]["name"] == runner.name and race["mine"]["route_points"] and race["partner"]["route_points"], race
        assert abs(race["mine"]["distance_m"] - finals[runner.name]) < 1e-6, (race, finals)
        status, svg, headers = http(runner.dashboard + f"/api/races/{run}/map.svg")
        assert status == 200 and headers["Content-Type"].startswith("image/svg+xml"), (status, headers)
        root = ElementTree.fromstring(svg)
        ns = "{http://www.w3.org/2000/svg}"
        lines = root.findall(f"{ns}polyline")
        assert [line.get("data-runner") for line in lines] == [runner.name, race["partner"]["name"]], svg[:300]
        assert [int(line.get("data-points")) for line in lines] == [race["mine"]["route_points"],
                                                                     race["partner"]["route_points"]]
        leads = [c for c in root.findall(f"{ns}circle") if c.get("class", "").startswith("lead ")]
        assert int(root.get("data-changes")) == len(leads) == race["lead_changes"], (root.attrib, len(leads), race)
        drawn = [(round(float(c.get("data-elapsed"))), "me" if c.get("class") == "lead mine" else "partner")
                 for c in leads]
        heard = worn_leads[runner.name]
        print(f"    {runner.name}'s race history: the lead changed {drawn} by the routes, {heard} by the wearable")
        assert [side for (_, side) in drawn] == [side for (_, side) in heard], (drawn, heard)
        assert all(abs(a - b) <= 8 for ((a, _), (b, _)) in zip(drawn, heard)), (drawn, heard)
        texts = [t.text for t in root.iter(f"{ns}text")]
        assert any(t.startswith(f"{runner.name}: ") and " km in " in t and "/km" in t for t in texts), texts
    status, _, _ = http(runners[0].dashboard + "/api/races/nope/map.svg")
    assert status == 404, status


def test_partner_abandons(relay):
    """The partner who never finishes: Bob (a psycopg participant) starts, posts for ten seconds and
    goes silent. The relay abandons him by itself after the run's 15 s, Alice's real wearable hears
    it once ("bob left the race") and shows him abandoned, and when she ends, the relay decides the
    race from her final figures and his last ones."""
    import race_day
    alice = race_day.Runner(relay, "alice")
    try:
        with relay.connect("bob") as b:
            run = start_race(relay, "alice", "bob", "--start-in", "20s", "--abandon-after", "15s")
            start_at = count(b, "SELECT start_at FROM relay.my_runs WHERE id = %s", run).timestamp()
            alice.run_alone(os.path.join(race_day.GPS, "park_loop_run.nmea"), start_at)
            alice.phone = alice.setup.phone()
            race_day.sleep_until(start_at)
            b.execute("SELECT relay.report_start(%s, 20)", (run,))
            for second in range(1, 11):
                race_day.sleep_until(start_at + second)
                snapshot(b, run, "bob", second, 3.0 * second, float(second))

            def told():
                applied = [i for (i, ok) in alice.commands("partner_event") if ok]
                return applied and any("what=abandoned" in line for line in alice.journal("partner_event"))
            harness.wait_for(told, 60, "bob's abandonment on alice's wearable")
            time.sleep(3)  # a second telling, if there were one, would come now
            abandoned = [line for line in alice.journal("partner_event") if "what=abandoned" in line]
            assert len(abandoned) == 1, abandoned
            harness.wait_for(lambda: "bob left the race." in alice.spoken(), 10, "the cue")
            spoken = [t for t in alice.spoken() if t == "bob left the race."]
            assert len(spoken) == 1, alice.spoken()
            reply = json.loads(harness.run([f"{harness.BIN}/wearbridge", "ctl", "status", "--json", "--config",
                                            alice.setup.wear_config]).stdout)
            race = (reply.get("status") or reply).get("race") or {}
            assert race.get("partner_state") == "abandoned", race
            text = harness.run([f"{harness.BIN}/wearbridge", "ctl", "status", "--config", alice.setup.wear_config]).stdout
            line = next((l for l in text.splitlines() if l.startswith("race")), "")
            assert "with bob, running; partner abandoned" in line and " m" in line, text
            out = harness.run([PHONE, "end", "--config", alice.setup.phone_config, "--timeout", "60"])
            assert "ACK" in out.stdout, out.stdout
            harness.wait_for(lambda: count(b, "SELECT state FROM relay.my_runs WHERE id = %s", run) != "accepted", 60,
                             "the relay's result")
            state, winner = b.execute("SELECT state, winner FROM relay.my_runs WHERE id = %s", (run,)).fetchone()
            outcome = dict(b.execute("SELECT runner, outcome FROM relay.run_entries(%s)", (run,)).fetchall())
            assert (state, winner) == ("complete", "alice") and outcome == {"alice": "finished", "bob": "abandoned"}, \
                (state, winner, outcome)
            print(f"    bob abandoned by the relay, told once on alice's wearable ({spoken[0]!r}); {winner} wins")
    finally:
        harness.stop_all()


def test_dashboard_race(relay):
    """The dashboard's race panel on a real race, in Debian's chromium: Alice invites Bob from her
    phone's dashboard, Bob (a psycopg participant) declines; Bob invites her and she accepts with the
    panel's button; her real wearable races him; the panel shows Bob beside her with the gap the
    wearable itself judges (`ctl status`), his state turning to paused, and his figures greying once
    they are old, with no reload; the relay's refusals and bad input come back as clear errors."""
    import race_day
    from browser import By, chromium, http
    alice = race_day.Runner(relay, "alice")
    driver = None
    try:
        alice.phone = alice.setup.phone()
        base = alice.dashboard
        harness.wait_for(lambda: http(base + "/api/health")[0] == 200, 30, "alice's dashboard")
        post = lambda path, body=None: http(base + path, "POST", json.dumps(body).encode() if body is not None else b"",
                                            {"Content-Type": "application/json"})  # noqa: E731
        status, body, _ = post("/api/race/invites", {"partner": "bob", "distance_m": 1000, "start_in_s": 30})
        assert status == 201 and body["state"] == "invited", (status, body)
        first = body["run"]
        status, listed, _ = http(base + "/api/race/runs")
        assert status == 200 and any(r["run"] == first and r["inviter"] == "alice" and r["state"] == "invited"
                                     for r in listed["runs"]), listed
        bad = [post("/api/race/invites", {"partner": "no such runner!"}), post("/api/race/invites", {"partner": 7}),
               post("/api/race/invites", {"partner": "bob", "start_in_s": 2}), post("/api/race/runs/nope/accept")]
        assert [b[0] for b in bad] == [400, 400, 400, 400], bad
        assert [b[1]["error"] for b in bad] == ["bad_partner", "bad_partner", "bad_start_in", "malformed_run"], bad
        with relay.connect("bob") as b:
            b.execute("SELECT relay.decline(%s)", (first,))
            status, body, _ = post(f"/api/race/runs/{first}/accept")
            assert status == 409 and body["error"] == "relay_refused" and body["message"], (status, body)
            refusal = body["message"]
            run = str(b.execute("SELECT relay.invite('alice', 'run', 1000, interval '30 seconds', interval '90 seconds')")
                      .fetchone()[0])

            driver = chromium(alice.setup.dir)
            driver.get(base + "/w/pi")
            button = harness.wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, f'[data-accept="{run}"]'), 30,
                                      "bob's invite with an Accept button")[0]
            button.click()
            harness.wait_for(lambda: "accepted" in driver.find_element(By.ID, "race-note").text, 20, "the acceptance")
            assert count(b, "SELECT state FROM relay.my_runs WHERE id = %s", run) == "accepted"
            start_at = count(b, "SELECT start_at FROM relay.my_runs WHERE id = %s", run).timestamp()
            # A wearable refuses a race while it has no fix: the phone stops while hers finds one (the
            # page rides it out by itself) and hands her the race when it is back.
            alice.phone.send_signal(signal.SIGTERM)
            alice.phone.wait(10)
            alice.run_alone(os.path.join(race_day.GPS, "park_loop_run.nmea"), start_at)
            alice.phone = alice.setup.phone()
            try:
                harness.wait_for(lambda: driver.find_element(By.ID, "race-partner").text == "with bob", 30,
                                 "the race on the panel")
            except AssertionError:
                print("    the panel's race from the API:", http(base + "/api/wearables/pi/race")[1])
                print("    the page's link:", driver.find_element(By.ID, "link-state").text)
                raise
            race_day.sleep_until(start_at)
            b.execute("SELECT relay.report_start(%s, 20)", (run,))
            samples = []
            for second in range(1, 12):
                race_day.sleep_until(start_at + second)
                snapshot(b, run, "bob", second, 3.0 * second, float(second))
                if second < 5:
                    continue
                time.sleep(0.5)
                # The panel's API read on either side of the wearable's own status and of the page:
                # whatever the machine's load makes of the time between them, each is compared with
                # what the panel said before and after it.
                _, api, _ = http(base + "/api/wearables/pi/race")
                reply = json.loads(harness.run([f"{harness.BIN}/wearbridge", "ctl", "status", "--json", "--config",
                                                alice.setup.wear_config]).stdout)
                worn = (reply.get("status") or reply).get("race") or {}
                page = driver.execute_script(
                    "return [document.getElementById('t-gap').dataset.value, document.getElementById('v-partner')"
                    ".textContent, document.getElementById('race-partner').textContent,"
                    " document.getElementById('t-gap').dataset.seconds]")
                _, after, _ = http(base + "/api/wearables/pi/race")
                samples.append((second, api["race"], worn, page, after["race"]))
                if second == 8:
                    driver.execute_script("document.getElementById('race').scrollIntoView()")
                    shots = os.environ.get("DASHBOARD_SHOTS", harness.SCREENSHOTS)
                    os.makedirs(shots, exist_ok=True)
                    driver.save_screenshot(os.path.join(shots, "race-412x892.png"))
            sent = {3.0 * k for k in range(1, 12)}
            for second, api, worn, page, after in samples:
                assert api["partner"] == "bob" and api["run"] == run and page[2] == "with bob", (second, api, page)
                # Bob's figures as he sent them, none he had not sent yet, never going back.
                assert api["partner_distance_m"] in sent and api["partner_distance_m"] <= 3.0 * second, (second, api)
                assert after["partner_distance_m"] >= api["partner_distance_m"], (second, api, after)
                assert api["own_distance_m"] is not None and api["gap_m"] is not None, (second, api)
                # The panel's gap is the wearable's own judgement of the same race: within what the
                # panel said just before and just after, and a second's running either side.
                low, high = sorted((api["gap_m"], after["gap_m"]))
                assert worn.get("gap") is not None and low - 8 <= worn["gap"] <= high + 8, (second, api, worn, after)
                assert page[0] != "" and low - 8 <= float(page[0]) <= high + 8, (second, api, page, after)
                # The gap in time, on the same side as the distance's, and about it at a runner's pace
                # (the leader at 2-4 m/s, within the second the two were read apart).
                for gap_m, gap_s in ((api["gap_m"], api["gap_s"]), (worn["gap"], worn.get("gap_s"))):
                    assert gap_s is not None and gap_s * gap_m >= -3, (second, api, worn)
                    assert abs(gap_s) <= abs(gap_m) / 2 + 2, (second, api, worn)
                low_s, high_s = sorted((api["gap_s"], after["gap_s"]))
                assert page[3] != "" and low_s - 4 <= float(page[3]) <= high_s + 4, (second, api, page, after)
            # The panel catches up with Bob's last figures.
            harness.wait_for(lambda: http(base + "/api/wearables/pi/race")[1]["race"]["partner_distance_m"] == 33.0,
                             15, "bob's last figures on the panel")
            # Bob stops: the critical message reaches the panel without a reload; then his figures age.
            b.execute("INSERT INTO relay.messages (run_id, runner, seq, class, kind, distance_m, elapsed_s, paused) "
                      "VALUES (%s, 'bob', 12, 'critical', 'paused', 33, 12, true)", (run,))
            paused_at = time.time()
            harness.wait_for(lambda: driver.find_element(By.ID, "v-pstate").text == "paused", 15, "bob paused on the panel")
            seen_paused = time.time() - paused_at
            harness.wait_for(lambda: "stale" in driver.find_element(By.ID, "t-partner").get_attribute("class"), 30,
                             "bob's figures greyed out")
            age = driver.find_element(By.ID, "v-page").text
            assert int(age.split()[0]) >= 10, age
            events = driver.find_element(By.ID, "race-events").text
            assert "bob paused" in events, events
            gaps = [(s, round(a["gap_m"], 1), a["gap_s"], round(w["gap"], 1), w.get("gap_s"))
                    for s, a, w, _, _ in samples]
            print(f"    invite and accept from the dashboard (the relay's refusal: {refusal!r}); gap on the panel "
                  f"against the wearable's (s, panel m, panel s, wearable m, wearable s): {gaps}; bob's pause shown after {seen_paused:.1f} s; "
                  f"greyed at {age}")
    finally:
        if driver is not None:
            driver.quit()
        harness.stop_all()

