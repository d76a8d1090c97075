"""The relay attacked as docs/relay.md's threat model says it may be: by a fellow runner with an
enrolled certificate (mallory, beside races between the others), by a stranger on the network and
by a local user on the relay's host, against a relay made by scripts/rigs/relay-local.sh. Every attempt
is plain SQL over psycopg or the real `wearbridge-phone`; each test names what it must not be able
to do, and the figures it prints (latencies, counts) go to docs/benchmarks.md."""
import datetime
import json
import os
import subprocess
import threading
import time
import uuid

import psycopg

import relay as contract
from relay import count, refused, snapshot, start_race, wait_for_start

FAR = dict(options="-c statement_timeout=20000")  # a test that would hang fails instead


def counted(plan):
    """Every row a plan's nodes saw: returned or removed by a filter (what EXPLAIN ANALYZE leaks)."""
    total = 0
    for node in plan if isinstance(plan, list) else [plan]:
        node = node.get("Plan", node)
        total += node.get("Actual Rows", 0) + node.get("Rows Removed by Filter", 0)
        total += node.get("Rows Removed by Index Recheck", 0) + node.get("Rows Removed by Join Filter", 0)
        total += counted(node.get("Plans", []))
    return total


def message(conn, run, runner, seq, kind="split", klass="notice", distance=None, elapsed=None, gps_time=None):
    conn.execute("INSERT INTO relay.messages (run_id, runner, seq, class, kind, distance_m, elapsed_s, gps_time) "
                 "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)", (run, runner, seq, klass, kind, distance, elapsed, gps_time))


def test_no_reading_others(relay):
    """A fellow runner learns nothing of a race they are not in: not from plans, read functions,
    errors, keys or notifications."""
    with relay.connect("alice") as a, relay.connect("bob") as b, relay.connect("mallory") as m:
        run = start_race(relay, "alice", "bob", "--start-in", "10s")
        snapshot(a, run, "alice", 1, 12.4, 5)
        # Plans: EXPLAIN ANALYZE over every narrowing counts none of the race's rows.
        low, high = "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff"
        seen = 0
        for query in ("SELECT * FROM relay.my_runs WHERE id BETWEEN %s AND %s",
                      "SELECT * FROM relay.my_runs WHERE id::text BETWEEN %s AND %s",
                      f"SELECT * FROM relay.run_messages('{run}', 'alice') WHERE run_id::text BETWEEN %s AND %s",
                      f"SELECT * FROM relay.run_events('{run}') WHERE run_id::text BETWEEN %s AND %s"):
            seen += counted(m.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + query, (low, high)).fetchone()[0])
        assert seen == 0, f"mallory's plans counted {seen} rows of a race she is not in"
        for table in ("runs", "entries", "messages", "events"):
            refused(lambda: m.execute(f"EXPLAIN ANALYZE SELECT * FROM relay.{table}"), "42501", "permission denied")
        # The read functions answer for her run exactly as for one that does not exist: nothing.
        fake = str(uuid.uuid4())
        for reader in ("relay.run_entries(%s)", "relay.run_events(%s)", "relay.run_messages(%s, 'alice')",
                       "relay.latest_snapshot(%s, 'alice')"):
            assert count(m, f"SELECT count(*) FROM {reader}", run) == 0 == count(m, f"SELECT count(*) FROM {reader}",
                                                                                  fake), reader
        # Errors: a message into their race says what one into no race says, and quotes nothing of it.
        answers = [refused(lambda: snapshot(m, target, who, 1, 0.0, 6), "42501")
                   for who in ("mallory", "alice") for target in (run, fake)]
        answers.append(refused(lambda: snapshot(m, run, "alice", 1, 12.4, 5, conflict="ON CONFLICT DO NOTHING"),
                               "42501"))
        assert len(set(answers)) == 1 and "12.4" not in answers[0], answers
        # Notifications: none, on the channel the first schema used or any other.
        channel = "relay_" + run.replace("-", "")
        with relay.connect("bob") as listener, relay.connect("mallory") as eavesdropper:
            listener.execute(f"LISTEN {channel}")
            eavesdropper.execute(f"LISTEN {channel}")
            message(a, run, "alice", 2, "paused", "critical", 12.4, 6)
            a.execute("SELECT relay.report_start(%s, 20)", (run,))
            a.execute("SELECT relay.cancel(%s, 'done')", (run,))
            heard = [n.payload for n in listener.notifies(timeout=1.5, stop_after=1)]
            heard += [n.payload for n in eavesdropper.notifies(timeout=0.5, stop_after=1)]
        assert heard == [], f"notifications on the race's channel: {heard}"
        refused(lambda: m.execute("SELECT relay.channel(%s)", (run,)), "42883")
        print(f"    mallory: 0 rows counted by 4 plans, 0 rows from 4 read functions, one answer for every "
              f"of {len(answers)} message attempts ({answers[0]!r}), 0 notifications heard")


def test_forgery(relay):
    """A runner cannot forge a win in their own race: no finish before the start or longer than the
    race has lasted, no NaN or infinity, no notice beyond the top speed, no notice flood, no
    gps_time outside the race, no control characters in a reason."""
    with relay.connect("alice") as a, relay.connect("bob") as b:
        run = start_race(relay, "alice", "bob", "--distance", "5km", "--start-in", "10s")
        refused(lambda: a.execute("SELECT relay.finish(%s, 5000, 400, 400)", (run,)), "WB506", "before its start")
        wait_for_start(a, run, after=2)
        refused(lambda: a.execute("SELECT relay.finish(%s, 5000, 400, 400)", (run,)), "WB507",
                "longer than the race has lasted")
        for figures in (("NaN", 10, 10), ("Infinity", 10, 10), (10, "NaN", 10), (10, 10, "-Infinity"), (-1, 10, 10)):
            refused(lambda: a.execute("SELECT relay.finish(%s, %s::float8, %s::float8, %s::float8)", (run, *figures)),
                    "WB504", "finite")
        snapshot(a, run, "alice", 1, 6.0, 2.0)
        refused(lambda: message(a, run, "alice", 2, distance=999999.0, elapsed=3.0), "WB607", "top speed")
        refused(lambda: message(a, run, "alice", 2, distance=float("nan"), elapsed=3.0), "WB611", "finite")
        last = count(b, "SELECT last_distance_m FROM relay.run_entries(%s) WHERE runner = 'alice'", run)
        assert last == 6.0, f"bob reads alice's distance as {last}"
        taken, seq = 0, 10
        while True:
            seq += 1
            try:
                message(a, run, "alice", seq)
                taken += 1
            except psycopg.Error as error:
                assert error.diag.sqlstate == "WB609", error
                break
            assert taken < 50, "no rate limit on notices"
        assert 9 <= taken <= 12, f"{taken} notices taken at once"
        time.sleep(1.1)
        message(a, run, "alice", seq + 1)
        for when in ("infinity", "-infinity", "1970-01-01T00:00:00Z", "2999-01-01T00:00:00Z"):
            refused(lambda: message(a, run, "alice", seq + 2, gps_time=when), "WB610", "outside the race")
        refused(lambda: a.execute("SELECT relay.cancel(%s, %s)", (run, "\x1b[2J\x1b[31mbob cheated")), "WB303")
        a.execute("SELECT relay.cancel(%s, 'done')", (run,))
        print(f"    finish before the start, 400 s after 2 s, NaN/Infinity/negative: refused; a 999999 m notice "
              f"refused (bob reads {last} m); {taken} notices at once, then WB609; gps_time 'infinity': refused")


def test_one_race_at_once(relay):
    """Two invites accepted at the same moment: the second waits for the first and is refused."""
    with relay.connect("bob") as b, relay.connect("carol") as c, relay.connect("alice") as first, \
            relay.connect("alice", **FAR) as second:
        one = count(b, "SELECT relay.invite('alice')")
        two = count(c, "SELECT relay.invite('alice')")
        first.execute("BEGIN")
        first.execute("SELECT relay.accept(%s)", (one,))
        outcome = {}

        def accept():
            started = time.time()
            try:
                second.execute("SELECT relay.accept(%s)", (two,))
                outcome["second"] = "accepted"
            except psycopg.Error as error:
                outcome["second"] = error.diag.sqlstate
            outcome["waited"] = time.time() - started
        thread = threading.Thread(target=accept)
        thread.start()
        time.sleep(0.5)
        first.execute("COMMIT")
        thread.join(30)
        states = {str(r): s for (r, s) in first.execute("SELECT id, state FROM relay.my_runs WHERE id IN (%s, %s)",
                                                        (one, two)).fetchall()}
        first.execute("SELECT relay.cancel(%s)", (one,))
        if states.get(str(two)) == "accepted":
            first.execute("SELECT relay.cancel(%s)", (two,))
        assert outcome["second"] == "WB204", (outcome, states)
        print(f"    the second acceptance waited {outcome['waited']:.2f} s for the first, then WB204")


def test_stalling(relay):
    """A runner who holds a transaction, locks, a LISTEN and a statement open cannot hold up two
    others racing: every call of theirs answers within the lock wait, the relay notifies nothing,
    and the next sweep after limits.stalled_after ends the stalled sessions."""
    with relay.connect("carol") as c:
        expiring = count(c, "SELECT relay.invite('dave', expires_in => interval '1 second')")
    time.sleep(1.3)
    held = relay.connect("mallory")  # a sweep in a transaction left open
    held.execute("BEGIN")
    held.execute("SET LOCAL statement_timeout = 0")
    held.execute("SET LOCAL idle_in_transaction_session_timeout = 0")
    held.execute("SELECT relay.sweep()")
    keys = relay.connect("mallory")  # the first schema's invite locks, by their guessable keys
    for who in ("alice", "bob"):
        keys.execute("SELECT pg_advisory_lock(hashtext(%s))", (f"relay.invite:{who}",))
    pinned = relay.connect("mallory")  # a listener that stops reading: the queue's tail stays with it
    pinned.execute("LISTEN relay_anything")
    pinned.execute("BEGIN")
    pinned.execute("SET LOCAL idle_in_transaction_session_timeout = 0")
    pinned.execute("SELECT 1")
    sleeper = relay.connect("mallory")
    sleeper.execute("SET statement_timeout = 0")
    slept = {}

    def sleep():
        try:
            sleeper.execute("SELECT pg_sleep(600)")
        except psycopg.Error as error:
            slept["ended"] = str(error).strip().splitlines()[0]
    sleeping = threading.Thread(target=sleep, daemon=True)
    sleeping.start()
    latencies = []

    def timed(conn, sql, *args):
        started = time.time()
        row = conn.execute(sql, args).fetchone()
        latencies.append(time.time() - started)
        return row[0] if row else None
    try:
        with relay.connect("alice", **FAR) as a, relay.connect("bob", **FAR) as b, relay.connect("carol", **FAR) as c:
            assert timed(c, "SELECT relay.sweep()") >= 1, "carol's own sweep did not expire her invite"
            expired = count(c, "SELECT count(*) FROM relay.run_events(%s) WHERE kind = 'expired'", expiring)
            assert expired == 1, expired
            run = str(timed(a, "SELECT relay.invite('bob', 'run', 200, interval '10 seconds')"))
            timed(b, "SELECT relay.accept(%s)", run)
            timed(a, "SELECT relay.report_start(%s, 10)", run)
            timed(b, "SELECT relay.report_start(%s, -10)", run)
            start = wait_for_start(a, run)
            for second in range(1, 7):
                while count(a, "SELECT now()") < start + datetime.timedelta(seconds=second):
                    time.sleep(0.05)
                for conn, who, speed in ((a, "alice", 4.0), (b, "bob", 3.5)):
                    started = time.time()
                    snapshot(conn, run, who, second, speed * second, float(second))
                    latencies.append(time.time() - started)
                    timed(conn, "SELECT relay.sweep()")
            timed(a, "SELECT relay.finish(%s, 24, 6, 6)", run)
            state = timed(b, "SELECT relay.finish(%s, 21, 6, 6)", run)
            assert state == "complete", state
            # A call held by what mallory holds waits until the stalled-session guard cuts her
            # (limits.stalled_after, 30 s); one she cannot hold takes milliseconds (the figure is in
            # docs/benchmarks.md). The bound tells the two apart, well above what load does to a call.
            worst = max(latencies)
            assert worst < 15, f"a call took {worst:.2f} s while mallory held her sessions"
            # The guard: the next sweep past limits.stalled_after ends what mallory holds open.
            with relay.admin() as admin:
                admin.execute("UPDATE relay.limits SET stalled_after = '5 seconds'")
            try:
                time.sleep(5.2)
                timed(a, "SELECT relay.sweep()")
                for name, conn in (("the held sweep", held), ("the pinned listener", pinned)):
                    try:
                        conn.execute("SELECT 1")
                        raise AssertionError(f"{name} still open after the guard's sweep")
                    except psycopg.OperationalError:
                        pass
                sleeping.join(10)
                assert "terminat" in slept.get("ended", ""), slept
            finally:
                with relay.admin() as admin:
                    admin.execute("UPDATE relay.limits SET stalled_after = '30 seconds'")
        latencies.sort()
        print(f"    alice and bob raced beside mallory's held transaction, advisory locks, pinned LISTEN and "
              f"pg_sleep: {len(latencies)} calls, p50 {latencies[len(latencies) // 2] * 1000:.0f} ms, max "
              f"{latencies[-1] * 1000:.0f} ms; the first sweep past stalled_after ended her three stalled sessions")
    finally:
        for conn in (held, keys, pinned, sleeper):
            try:
                conn.close()
            except psycopg.Error:
                pass


def test_connection_flood(relay):
    """One runner opening connections as fast as they can gets limits.connections_per_runner; the
    others connect and race meanwhile."""
    opened, refusals = [], []
    lock = threading.Lock()

    def grab():
        try:
            conn = relay.connect("mallory")
            with lock:
                opened.append(conn)
        except psycopg.OperationalError as error:
            with lock:
                refusals.append(str(error).strip().splitlines()[-1])
    threads = [threading.Thread(target=grab) for _ in range(60)]
    started = time.time()
    [t.start() for t in threads]
    [t.join(60) for t in threads]
    took = time.time() - started
    try:
        with relay.connect("alice") as a:
            limit = count(a, "SELECT connections_per_runner FROM relay.limits")
        assert len(opened) <= limit, f"mallory holds {len(opened)} connections (limit {limit})"
        assert refusals and all("too many connections for role" in r for r in refusals), refusals[:3]
        run = start_race(relay, "alice", "bob", "--start-in", "30s")
        relay.phone("alice", "race", "cancel", run)
    finally:
        for conn in opened:
            conn.close()
    print(f"    60 connections at once by mallory in {took:.1f} s: {len(opened)} opened, {len(refusals)} refused "
          f"({refusals[0]!r}); alice and bob invited, accepted and cancelled meanwhile")


def test_strangers(relay):
    """A stranger learns no runner's name from the refusals; a local user cannot reach the owner."""
    def attempt(user, **extra):
        try:
            relay.connect(user, **extra).close()
            return "let in"
        except psycopg.OperationalError as error:
            return str(error).strip().splitlines()[-1].replace(f'user "{user}"', 'user "NAME"')
    none = os.path.join(relay.dir, "none")
    names = ("alice", "zed", "relay_admin", "postgres")
    kinds = {
        "no certificate": dict(sslcert=f"{none}.crt", sslkey=f"{none}.key"),
        "plain TCP": dict(sslmode="disable"),
        "a fellow runner's certificate": dict(sslcert=f"{relay.tls}/mallory.crt", sslkey=f"{relay.tls}/mallory.key"),
    }
    for what, extra in kinds.items():
        answers = {name: attempt(name, **extra) for name in names}
        assert len(set(answers.values())) == 1 and "let in" not in answers.values(), (what, answers)
        print(f"    {what}, as any of {', '.join(names)}: {answers['zed']}")
    local = subprocess.run(["runuser", "-u", "nobody", "--", "psql", "-X", "-w",
                            f"host={relay.dir}/run port={relay.port} user=relay_admin dbname=postgres", "-c",
                            "SELECT 1"], capture_output=True, text=True, timeout=30)
    assert local.returncode != 0, f"a local user reached the relay as relay_admin: {local.stdout}"
    print(f"    a local user (nobody) as relay_admin: {local.stderr.strip().splitlines()[0]}")


def test_terminal_text(relay):
    """No command prints a control character raw, even one stored before the relay refused them;
    the phone sends a reason the relay takes."""
    with relay.connect("bob") as b:
        run = count(b, "SELECT relay.invite('alice')")
    relay.phone("alice", "race", "decline", str(run))
    forged = "\x1b]0;pwned\x07\x1b[2J\x1b[31mbob cheated\u202e"
    with relay.admin() as admin:  # a reason stored by a relay from before the rule
        admin.execute("ALTER TABLE relay.runs DROP CONSTRAINT IF EXISTS runs_reason_printable")
        admin.execute("UPDATE relay.runs SET reason = %s WHERE id = %s", (forged, run))
        admin.execute("ALTER TABLE relay.runs ADD CONSTRAINT runs_reason_printable "
                      "CHECK (reason IS NULL OR reason !~ '[[:cntrl:]]') NOT VALID")
    for args in (("race", "history"), ("race", "show", str(run)), ("race", "show", str(run), "--json")):
        out = relay.phone("alice", *args).stdout
        raw = [c for c in out if ord(c) < 0x20 and c not in "\n\t" or 0x7F <= ord(c) <= 0x9F or c == "\u202e"]
        assert not raw, f"race {' '.join(args[1:])} printed {raw!r}"
        assert "bob cheated" in out, out
    shown = relay.phone("alice", "race", "history").stdout
    with relay.connect("bob") as b:
        again = count(b, "SELECT relay.invite('alice')")
    relay.phone("bob", "race", "cancel", str(again), "--reason", "wrong\x1b[31m shoes")
    with relay.connect("alice") as a:
        stored = count(a, "SELECT reason FROM relay.my_runs WHERE id = %s", again)
    assert stored == "wrong [31m shoes", repr(stored)
    line = next(l for l in shown.splitlines() if str(run) in l)
    print(f"    history prints {line[max(0, line.index('bob cheated') - 40):line.index('bob cheated') + 11]!r}; the phone "
          f"sends {stored!r}")


TESTS = [test_no_reading_others, test_forgery, test_one_race_at_once, test_stalling, test_connection_flood,
         test_strangers, test_terminal_text]
assert contract.RUNNERS[2] == "mallory"
