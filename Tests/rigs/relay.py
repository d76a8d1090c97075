"""The relay as its tests and benchmarks meet it: a local relay made by scripts/rigs/relay-local.sh (the script
docs/relay.md tells a relay's owner to run), runners' connections as another app would make them, and
the SQL helpers the contract's tests share."""
import datetime
import os
import shutil
import subprocess
import tempfile
import time

import psycopg

import harness

ROOT = harness.ROOT
BIN = os.environ.get("WEARBRIDGE_BIN", os.path.join(ROOT, ".build", "debug"))
PHONE = os.path.join(BIN, "wearbridge-phone")
RUNNERS = ["alice", "bob", "mallory", "carol", "dave"]


class Relay:
    """A local relay made by the script docs/relay.md tells a relay's owner to run."""

    def __init__(self):
        # The relay's server is the rig's, whichever test restarts it: it keeps the mark of the
        # processes that made it (Tests/rigs/leftovers.py), not a test's.
        self.mark = os.environ.get("WEARBRIDGE_TEST_RUN", "")
        os.makedirs("/var/tmp", exist_ok=True)
        self.dir = tempfile.mkdtemp(prefix="wearbridge-relay-", dir="/var/tmp")
        os.chmod(self.dir, 0o755)
        self.port = harness.free_port()
        env = dict(os.environ, WEARBRIDGE_PHONE=PHONE)
        out = subprocess.run([os.path.join(ROOT, "scripts", "rigs", "relay-local.sh"), self.dir, "--port", str(self.port),
                              *RUNNERS], capture_output=True, text=True, env=env, timeout=180)
        assert out.returncode == 0, f"relay-local.sh exited {out.returncode}: {out.stdout}{out.stderr}"
        self.printed = out.stdout + out.stderr
        self.tls = os.path.join(self.dir, "tls")
        self.admin_url = f"postgresql://relay_admin@/postgres?host={self.dir}/run&port={self.port}"
        for runner in RUNNERS:
            with open(self.config(runner), "w") as f:
                f.write(f'[storage]\ndirectory = "{self.dir}/{runner}-phone"\n'
                        f'[relay]\nhost = "localhost"\nport = {self.port}\nrunner = "{runner}"\n'
                        f'ca = "{self.tls}/ca.crt"\ncertificate = "{self.tls}/{runner}.crt"\n'
                        f'key = "{self.tls}/{runner}.key"\n')

    def config(self, runner):
        return os.path.join(self.dir, f"{runner}.toml")

    def connect(self, user, cert=None, **extra):
        """A runner's connection as another app would make it: TLS, their certificate, autocommit."""
        cert = cert or user
        args = dict(host="localhost", port=self.port, dbname="postgres", user=user, sslmode="verify-full",
                    sslrootcert=f"{self.tls}/ca.crt", sslcert=f"{self.tls}/{cert}.crt",
                    sslkey=f"{self.tls}/{cert}.key", autocommit=True, connect_timeout=10)
        args.update(extra)
        return psycopg.connect(**args)

    def admin(self):
        return psycopg.connect(self.admin_url, autocommit=True)

    def phone(self, runner, *args, check=True):
        result = subprocess.run([PHONE, *args, "--config", self.config(runner)], capture_output=True, text=True,
                                timeout=60)
        if check and result.returncode != 0:
            raise AssertionError(f"{runner}: race {' '.join(args)} exited {result.returncode}: {result.stderr}")
        return result

    def stop_hard(self):
        """The server stopped at once (pg_ctl's immediate mode), as a crash leaves it."""
        out = subprocess.run([os.path.join(ROOT, "scripts", "rigs", "relay-local.sh"), self.dir, "--stop", "immediate"],
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, f"the relay's stop: {out.stdout}{out.stderr}"

    def restart(self):
        """The server started again on its data, as its unit would after a crash."""
        env = dict(os.environ, WEARBRIDGE_PHONE=PHONE, WEARBRIDGE_TEST_RUN=self.mark)
        out = subprocess.run([os.path.join(ROOT, "scripts", "rigs", "relay-local.sh"), self.dir, "--port",
                              str(self.port)], capture_output=True, text=True, env=env, timeout=180)
        assert out.returncode == 0, f"the relay's restart: {out.stdout}{out.stderr}"

    def stop(self):
        subprocess.run([os.path.join(ROOT, "scripts", "rigs", "relay-local.sh"), self.dir, "--stop", "immediate"],
                       capture_output=True, timeout=60)
        shutil.rmtree(self.dir, ignore_errors=True)


def refused(call, code, *words):
    """`call` must fail with SQLSTATE `code` and a message holding `words`; returns the message."""
    try:
        call()
    except psycopg.Error as error:
        state = error.diag.sqlstate
        message = error.diag.message_primary or str(error)
        assert state == code, f"expected SQLSTATE {code}, got {state}: {message}"
        for word in words:
            assert word in message, f"{word!r} not in {message!r}"
        return message
    raise AssertionError(f"expected a refusal {code}, the call succeeded")


def snapshot(conn, run, runner, seq, distance, elapsed, paused=False, conflict=""):
    conn.execute("INSERT INTO relay.messages (run_id, runner, seq, class, kind, distance_m, elapsed_s, paused) "
                 f"VALUES (%s, %s, %s, 'snapshot', 'snapshot', %s, %s, %s) {conflict}",
                 (run, runner, seq, distance, elapsed, paused))


def start_race(relay, inviter, invitee, *options):
    run = relay.phone(inviter, "race", "invite", invitee, *options).stdout.strip()
    relay.phone(invitee, "race", "accept", run[:8])
    return run


def count(conn, sql, *args):
    return conn.execute(sql, args).fetchone()[0]


def wait_for_start(conn, run, after=0.0):
    """Waits until the relay's clock is `after` seconds past the run's start; returns the start."""
    start = count(conn, "SELECT start_at FROM relay.my_runs WHERE id = %s", run)
    while count(conn, "SELECT now()") < start + datetime.timedelta(seconds=after):
        time.sleep(0.1)
    return start
