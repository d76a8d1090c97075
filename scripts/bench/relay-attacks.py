#!/usr/bin/env python3
"""The relay attacked, before and after, in one run (docs/benchmarks.md, "The relay attacked"): each
attempt of Tests/rigs/relay_attacks.py made against two fresh local relays and its answer printed, not
asserted. "before" is the first schema (`relay migrate --through 1`) with the first server setup
(the owner by `trust` on the socket, `cert` only for members of relay_runner); "after" is every
migration with scripts/rigs/relay-local.sh as it is. Prints one Markdown table.
    python3 scripts/bench/relay-attacks.py        (needs the debug build and PostgreSQL 15)"""
import datetime
import os
import subprocess
import sys
import threading
import time

import psycopg

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "rigs"))
import relay as contract  # noqa: E402  (the rig's Relay: a relay made by scripts/rigs/relay-local.sh)

FIRST_HBA = ("local   all  relay_admin                 trust\n"
             "hostssl all  +relay_runner  0.0.0.0/0    cert\n"
             "hostssl all  +relay_runner  ::/0         cert\n")


def answer(call):
    """What the relay said: the error's SQLSTATE and first line, or what the call returned."""
    started = time.time()
    try:
        result = call()
        return f"accepted{'' if result in (None, '') else f' ({result})'}"
    except psycopg.Error as error:
        state = getattr(error.diag, "sqlstate", None) or "error"
        text = (error.diag.message_primary or str(error)).strip().splitlines()[0]
        took = time.time() - started
        return f"{state}: {text[:90]}" + (f" (after {took:.0f} s)" if took > 1 else "")


def make(before):
    if before:
        os.environ["RELAY_MIGRATE_THROUGH"] = "1"
    else:
        os.environ.pop("RELAY_MIGRATE_THROUGH", None)
    relay = contract.Relay()
    if before:
        data = os.path.join(relay.dir, "data")
        with open(os.path.join(data, "pg_hba.conf"), "w") as f:
            f.write(FIRST_HBA)
        conf = os.path.join(data, "postgresql.conf")
        with open(conf) as f:
            text = f.read().replace("unix_socket_permissions = 0700\n", "")
        with open(conf, "w") as f:
            f.write(text)
        os.chmod(os.path.join(relay.dir, "run"), 0o755)
        subprocess.run(["runuser", "-u", "postgres", "--", "/usr/lib/postgresql/15/bin/pg_ctl", "-D", data, "-w",
                        "-l", os.path.join(relay.dir, "run", "server.log"), "restart"], check=True,
                       capture_output=True)
    return relay


def read(conn, before, sql_before, sql_after, *args):
    return conn.execute(sql_before if before else sql_after, args).fetchone()[0]


def attacks(relay, before):
    rows = {}
    limit = dict(options="-c statement_timeout=5000")
    with relay.connect("alice") as a, relay.connect("bob") as b, relay.connect("mallory") as m:
        run = contract.start_race(relay, "alice", "bob", "--start-in", "10s")
        contract.snapshot(a, run, "alice", 1, 12.4, 5)
        plan = m.execute("EXPLAIN (ANALYZE, FORMAT JSON) SELECT * FROM relay.my_runs WHERE id BETWEEN %s AND %s",
                         ("00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff")).fetchone()[0]
        import relay_attacks as probes
        rows["EXPLAIN ANALYZE over my_runs, every id"] = f"{probes.counted(plan)} rows of others' runs counted"
        rows["a message as alice into her race (distance 0)"] = answer(
            lambda: contract.snapshot(m, run, "alice", 2, 0.0, 6))
        with relay.connect("bob") as listener:
            listener.execute("LISTEN relay_" + run.replace("-", ""))
            probes.message(a, run, "alice", 3, "paused", "critical", 12.4, 6)
            a.execute("SELECT relay.report_start(%s, 20)", (run,))
            heard = len(list(listener.notifies(timeout=1.5, stop_after=5)))
        rows["LISTEN relay_<run id> while alice pauses and reports her start"] = f"{heard} notifications heard"
        with relay.connect("carol") as c:
            expiring = c.execute("SELECT relay.invite('dave', expires_in => interval '1 second')").fetchone()[0]
        time.sleep(1.3)
        held = relay.connect("mallory")
        held.execute("BEGIN")
        held.execute("SELECT relay.sweep()")
        keys = relay.connect("mallory")
        keys.execute("SELECT pg_advisory_lock(hashtext('relay.invite:alice'))")
        with relay.connect("carol", **limit) as c, relay.connect("alice", **limit) as a2:
            rows["mallory's sweep left open; carol sweeps"] = answer(
                lambda: c.execute("SELECT relay.sweep()").fetchone()[0])
            rows["mallory holds pg_advisory_lock('relay.invite:alice'); alice invites"] = answer(
                lambda: str(a2.execute("SELECT relay.invite('dave')").fetchone()[0])[:8] + "...")
        held.close()
        keys.close()
        opened = []
        for _ in range(60):
            try:
                opened.append(relay.connect("mallory"))
            except psycopg.OperationalError:
                pass
        rows["mallory opens 60 more connections"] = f"{len(opened)} opened (she holds {len(opened) + 1})"
        for conn in opened:
            conn.close()
        rows["finish before the start (5 km in 400 s)"] = answer(
            lambda: a.execute("SELECT relay.finish(%s, 5000, 400, 400)", (run,)).fetchone()[0])
        a.execute("SELECT relay.cancel(%s)", (run,))
        run = contract.start_race(relay, "alice", "bob", "--start-in", "10s")
        contract.wait_for_start(a, run, after=2)
        contract.snapshot(a, run, "alice", 1, 6.0, 2.0)
        rows["a notice claiming 999,999 m"] = answer(lambda: probes.message(a, run, "alice", 2, distance=999999.0,
                                                                           elapsed=3.0))
        last = read(b, before, "SELECT last_distance_m FROM relay.entries WHERE run_id = %s AND runner = 'alice'",
                    "SELECT last_distance_m FROM relay.run_entries(%s) WHERE runner = 'alice'", run)
        rows["a notice claiming 999,999 m"] += f"; bob reads {last} m"
        taken = 0
        for seq in range(10, 40):
            try:
                probes.message(a, run, "alice", seq)
                taken += 1
            except psycopg.Error:
                break
        rows["30 notices back to back"] = f"{taken} taken"
        rows["gps_time 'infinity'"] = answer(lambda: probes.message(a, run, "alice", 50, gps_time="infinity"))
        rows["finish 100 m with an elapsed time of NaN"] = answer(
            lambda: b.execute("SELECT relay.finish(%s, 100, 'NaN', NULL)", (run,)).fetchone()[0])
        rows["finish 2 s after the start, elapsed 400 s"] = answer(
            lambda: a.execute("SELECT relay.finish(%s, 5000, 400, 400)", (run,)).fetchone()[0])
        a.execute("SELECT relay.sweep()")
        spare = a.execute("SELECT relay.invite('dave')").fetchone()[0]
        rows["a cancel reason with escape codes"] = answer(
            lambda: a.execute("SELECT relay.cancel(%s, %s)", (spare, "\x1b[2Jbob cheated")).fetchone()[0])
    with relay.admin() as admin:  # whatever the attempts above left open
        admin.execute("UPDATE relay.runs SET state = 'cancelled', ended_at = now() WHERE state IN ('invited', 'accepted')")
    with relay.connect("bob") as b, relay.connect("carol") as c, relay.connect("alice") as first, \
            relay.connect("alice", **limit) as second:
        one = b.execute("SELECT relay.invite('alice')").fetchone()[0]
        two = c.execute("SELECT relay.invite('alice')").fetchone()[0]
        first.execute("BEGIN")
        first.execute("SELECT relay.accept(%s)", (one,))
        got = {}
        thread = threading.Thread(target=lambda: got.update(a=answer(
            lambda: second.execute("SELECT relay.accept(%s)", (two,)).fetchone()[0])))
        thread.start()
        time.sleep(0.5)
        first.execute("COMMIT")
        thread.join(30)
        rows["two invites accepted at the same moment"] = "second: " + got["a"]
    names = {}
    for name in ("alice", "zed"):
        try:
            relay.connect(name, sslcert="/nonexistent.crt", sslkey="/nonexistent.key").close()
            names[name] = "let in"
        except psycopg.OperationalError as error:
            names[name] = str(error).strip().splitlines()[-1].split("FATAL:")[-1].strip()
    rows["a stranger without a certificate, as alice / as zed"] = " / ".join(names.values())
    local = subprocess.run(["runuser", "-u", "nobody", "--", "psql", "-X", "-w", "-At",
                            f"host={relay.dir}/run port={relay.port} user=relay_admin dbname=postgres", "-c",
                            "SELECT current_user"], capture_output=True, text=True, timeout=30)
    rows["a local user (nobody) as relay_admin"] = (
        f"logged in as {local.stdout.strip()}" if local.returncode == 0 else
        local.stderr.strip().splitlines()[0].split("failed:")[-1].strip())
    return rows


def main():
    results = {}
    for label, before in (("before", True), ("after", False)):
        relay = make(before)
        try:
            results[label] = attacks(relay, before)
        finally:
            relay.stop()
    print(f"| attempt ({datetime.date.today()}) | before | after |")
    print("|---|---|---|")
    for attempt in results["after"]:
        cells = [results[k].get(attempt, "").replace("|", "/") for k in ("before", "after")]
        print(f"| {attempt} | {cells[0]} | {cells[1]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
