"""The phone link end to end, with real parts: both programs as real processes over real TLS,
a fault proxy, kill -9 of either side, a lossy network namespace (nftables random drop), bad peers
of every kind, and an independent phone written with Python's grpcio from the .proto alone
(WEARBRIDGE_BIN points at the programs; the suite's debug build by default)."""
import json
import os
import random
import socket
import sqlite3
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import uuid

from concurrent import futures

import pytest

import harness
from harness import (BIN, ROOT, FaultProxy, Setup, free_port, generate_stubs, kill9, run, spawn, stop_all,
                     wait_for)

STUBS = tempfile.mkdtemp(prefix="wearbridge-stubs-")
generate_stubs(STUBS)
import grpc  # noqa: E402
from wearbridge.link.v1 import link_pb2, link_pb2_grpc  # noqa: E402

FIGURES = {}


def phone_command(setup, kind, command_id, timeout=40):
    result = run([f"{BIN}/wearbridge-phone", kind, "--config", setup.phone_config, "--id", command_id,
                  "--timeout", str(timeout)], timeout=timeout + 10, check=False)
    return result.stdout.strip()


ROUNDS = int(os.environ.get("PHONE_E2E_ROUNDS", "28"))


def test_faults_and_kills():
    """Random kill -9 of both programs, cuts mid-frame, stalls, blackholes and delay while a
    gpsfake session runs and the phone sends commands; then inbox == outbox, commands once, and
    the ended session backfilled (the phone killed mid-way) equal to the wearable's."""
    setup = Setup()
    setup.write_phone_config(extra="[backfill]\nchunk_rows = 5\n")
    proxy = FaultProxy(setup.phone_port)
    setup.write_wear_config(dial_port=proxy.port)
    setup.gpsfake(cycle="0.05")
    phone = setup.phone()
    wearable = setup.wearable()
    wait_for(lambda: setup.inbox(), 30, "the first message at the phone")
    rng = random.Random(int(os.environ.get("PHONE_E2E_SEED", "7")))
    kills = {"wearable": 0, "phone": 0}
    answers = {}
    threads = []

    def command(kind, command_id):
        answers[command_id] = (kind, phone_command(setup, kind, command_id))

    kinds = ["kill-wearable", "kill-phone", "cut", "cut-mid-frame", "stall", "blackhole", "delay"]
    rounds = ROUNDS
    faults = (kinds * (rounds // len(kinds) + 1))[:rounds]
    rng.shuffle(faults)
    for round_, fault in enumerate(faults):
        if round_ % 3 == 1:
            kind = "pause" if (round_ // 3) % 2 == 0 else "resume"
            thread = threading.Thread(target=command, args=(kind, str(uuid.UUID(int=rng.getrandbits(128), version=4))))
            thread.start()
            threads.append(thread)
        if fault == "kill-wearable":
            time.sleep(rng.uniform(0.2, 2.5))
            kill9(wearable)
            kills["wearable"] += 1
            wearable = setup.wearable()
        elif fault == "kill-phone":
            time.sleep(rng.uniform(0.2, 2.5))
            kill9(phone)
            kills["phone"] += 1
            phone = setup.phone()
        elif fault == "cut":
            proxy.cut()
        elif fault == "cut-mid-frame":
            proxy.mode = "cut-mid-frame"
            time.sleep(1)
            proxy.mode = "pass"
        elif fault in ("stall", "blackhole"):
            proxy.mode = fault
            time.sleep(rng.uniform(2, 6))
            proxy.mode = "pass"
            proxy.cut()
        elif fault == "delay":
            proxy.delay = 0.2
            time.sleep(3)
            proxy.delay = 0.0
        time.sleep(rng.uniform(0.5, 2))
    for thread in threads:
        thread.join(60)
    proxy.mode = "pass"
    wait_for(setup.delivered_everything, 90, "every critical and notice message delivered")
    wanted = [(seq, cls, kind) for (seq, cls, kind, _) in setup.outbox() if cls != "snapshot"]
    got = setup.inbox()
    lost = len(set(wanted) - set(got))
    duplicates = len(got) - len(set(got))
    count = setup.check_inbox_equals_outbox()
    # Every command applied once: each answered id has one command row; pauses counted as applied.
    rows = dict(setup.wear_query("SELECT id, accepted FROM command"))
    acked = {cid for cid, (kind, out) in answers.items() if out.startswith("ACK")}
    for cid, (kind, out) in answers.items():
        assert out.startswith(("ACK", "FAIL", "NOT ANSWERED")), f"{kind} {cid}: {out}"
        if out.startswith(("ACK", "FAIL")):
            assert cid in rows, f"answered {cid} but the wearable has no row for it"
            assert bool(rows[cid]) == out.startswith("ACK"), f"{cid}: {out} vs accepted={rows[cid]}"
    # Applied once: as many pause events as pause commands the wearable accepted (an answer may
    # still reach the phone after its CLI gave up: the wearable's own rows are the truth).
    applied = setup.wear_query("SELECT id FROM command WHERE command = 'pause' AND accepted = 1")
    applied_pauses = sum(1 for (cid,) in applied if cid in answers)
    paused_events = setup.wear_query("SELECT count(*) FROM event WHERE kind = 'paused'")[0][0]
    assert paused_events == applied_pauses, f"{paused_events} pause events for {applied_pauses} applied pauses"
    FIGURES["fault_run"] = {
        "rounds": rounds, "kills_wearable": kills["wearable"], "kills_phone": kills["phone"], "cuts": proxy.cuts,
        "messages": count, "lost": lost, "duplicated": duplicates, "commands": len(answers),
        "commands_acked": len(acked),
    }
    for process in (phone, wearable):
        assert process.poll() is None, "a program died on its own"
    # The phone ends the session; its whole record comes over in small chunks, the phone killed
    # in the middle of it; what it ends up with equals the wearable's session, row for row.
    out = phone_command(setup, "end", str(uuid.uuid4()))
    assert out.startswith("ACK") and "session=" in out, out
    session = out.split("session=")[1].split(":")[0].split()[0]
    wait_for(lambda: backfill_state(setup, session)[0] > 0, 30, "the backfill under way")
    interrupted_at = backfill_state(setup, session)
    kill9(phone)
    phone = setup.phone()
    wait_for(lambda: backfill_state(setup, session)[1] == 1, 120, "the backfill complete")
    rows = check_backfill(setup, session)
    exported = check_exports(setup, session)
    FIGURES["fault_run"].update({"backfill_rows": rows, "backfill_interrupted_at_seq": interrupted_at[0],
                                 "backfill_was_complete_at_kill": interrupted_at[1] == 1, "exports_equal": exported})
    return FIGURES["fault_run"]


def check_exports(setup, session):
    """The phone's export of its backfilled copy is the same file as the wearable's export of the
    session, byte for byte, in every format (the same exporters, replaying the same inputs)."""
    sizes = {}
    for fmt in ("gpx", "tcx", "fit", "csv"):
        wear_file, phone_file = f"{setup.dir}/wear.{fmt}", f"{setup.dir}/phone.{fmt}"
        run([f"{BIN}/wearbridge", "export", "--storage", setup.wear_dir, "--format", fmt, "-o", wear_file, session])
        run([f"{BIN}/wearbridge-phone", "export", "--config", setup.phone_config, "--format", fmt, "-o", phone_file,
             session])
        with open(wear_file, "rb") as a, open(phone_file, "rb") as b:
            assert a.read() == b.read(), f"the phone's {fmt} differs from the wearable's"
        sizes[fmt] = os.path.getsize(wear_file)
    return sizes


def backfill_state(setup, session):
    """(through_seq, done) of a session's backfill at the phone; (0, 0) before it begins."""
    import sqlite3
    try:
        db = sqlite3.connect(f"file:{setup.phone_dir}/wearbridge-phone.sqlite?mode=ro", uri=True, timeout=5)
        row = db.execute("SELECT through_seq, done FROM backfill WHERE session = ?", (session,)).fetchone()
        db.close()
        return row or (0, 0)
    except sqlite3.Error:
        return (0, 0)


def check_backfill(setup, session):
    """The backfilled session equals the wearable's: every fix, beat, speed reading, event and command, by seq."""
    import sqlite3
    want = set()
    for table, kind in (("fix", "fix"), ("heart_rate", "beat"), ("speed", "speed"), ("event", "event"),
                        ("command", "command")):
        for (seq,) in setup.wear_query(f"SELECT seq FROM {table} WHERE session_id = '{session}'"):
            want.add((seq, kind))
    db = sqlite3.connect(f"file:{setup.phone_dir}/wearbridge-phone.sqlite?mode=ro", uri=True, timeout=5)
    got = set(db.execute("SELECT seq, kind FROM backfill_row WHERE session = ?", (session,)).fetchall())
    db.close()
    assert got == want, f"backfill != session: missing {sorted(want - got)[:10]}, extra {sorted(got - want)[:10]}"
    fixes = [r for r in want if r[1] == "fix"]
    assert fixes, "a session without fixes proves nothing"
    return len(got)


def test_lossy_network():
    """Two network namespaces over a veth pair, 30 % of packets dropped at random by nftables in
    both directions; delivery still exactly once, in order."""
    if os.geteuid() != 0 or subprocess.run(["which", "nft"], capture_output=True).returncode != 0:
        pytest.skip("needs root and nftables")
    tag = f"wb{os.getpid() % 10000}"
    ns = [f"{tag}w", f"{tag}p"]

    def sh(*args, check=True):
        return subprocess.run(list(args), check=check, capture_output=True, text=True)

    try:
        for name in ns:
            sh("ip", "netns", "add", name)
        sh("ip", "link", "add", f"{tag}a", "type", "veth", "peer", "name", f"{tag}b")
        sh("ip", "link", "set", f"{tag}a", "netns", ns[0])
        sh("ip", "link", "set", f"{tag}b", "netns", ns[1])
        for name, dev, address in ((ns[0], f"{tag}a", "10.77.0.1/24"), (ns[1], f"{tag}b", "10.77.0.2/24")):
            sh("ip", "-n", name, "addr", "add", address, "dev", dev)
            sh("ip", "-n", name, "link", "set", dev, "up")
            sh("ip", "-n", name, "link", "set", "lo", "up")
            sh("ip", "netns", "exec", name, "nft", "add table inet lossy; add chain inet lossy out "
               "{ type filter hook output priority 0; }; add rule inet lossy out oifname != \"lo\" "
               "numgen random mod 100 < 30 drop")
        setup = Setup(phone_host="10.77.0.2", listen="10.77.0.2")
        # gpsfake and its gpsd in the wearable's namespace, on its own loopback.
        spawn(["ip", "netns", "exec", ns[0], "gpsfake", "-1", "-q", "-W", "900", "-c", "0.02", "-P",
               str(setup.gpsd_port), harness.RECORDING], os.path.join(setup.dir, "gpsfake.log"))
        setup.phone(prefix=["ip", "netns", "exec", ns[1]])
        setup.wearable(prefix=["ip", "netns", "exec", ns[0]])
        wait_for(lambda: len(setup.inbox()) >= 2, 90, "messages across the lossy link")
        command_id = str(uuid.uuid4())
        out = phone_command(setup, "pause", command_id, timeout=60)
        assert out.startswith(("ACK", "FAIL")), out
        time.sleep(15)
        wait_for(setup.delivered_everything, 120, "everything delivered over the lossy link")
        count = setup.check_inbox_equals_outbox()
        loss = sh("ip", "netns", "exec", ns[1], "nft", "list", "ruleset").stdout
        FIGURES["lossy_network"] = {"messages": count, "drop_percent": 30, "command": out.split()[0],
                                    "rule": "numgen random mod 100 < 30 drop" in loss}
        return FIGURES["lossy_network"]
    finally:
        stop_all()
        for name in ns:
            sh("ip", "netns", "del", name, check=False)


def grpc_credentials(setup, key_dir, peer_cert_dir):
    with open(f"{key_dir}/identity.key.pem", "rb") as f:
        key = f.read()
    with open(f"{key_dir}/identity.crt.pem", "rb") as f:
        cert = f.read()
    with open(f"{peer_cert_dir}/identity.crt.pem", "rb") as f:
        peer = f.read()
    return key, cert, peer


def python_wearable(setup, messages, key_dir=None):
    """grpcio as the wearable, from the .proto alone: sends `messages`, returns what came back."""
    key, cert, peer = grpc_credentials(setup, key_dir or setup.wear_dir, setup.phone_dir)
    credentials = grpc.ssl_channel_credentials(root_certificates=peer, private_key=key, certificate_chain=cert)
    channel = grpc.secure_channel(f"127.0.0.1:{setup.phone_port}", credentials,
                                  options=[("grpc.ssl_target_name_override", "wearbridge-phone")])
    stub = link_pb2_grpc.PhoneLinkStub(channel)
    received = []

    def requests():
        for message in messages:
            yield message
            time.sleep(0.2)
        time.sleep(1.5)

    try:
        for reply in stub.Connect(requests(), timeout=15):
            received.append(reply)
    except grpc.RpcError as error:
        received.append(error)
    channel.close()
    return received


def envelope(seq, cls, payload):
    return link_pb2.WearableMessage(envelope=link_pb2.Envelope(seq=seq, **{"class": cls}, created_at_ms=1, payload=payload))


def test_bad_peers():
    """Plaintext, no certificate, another certificate, garbage, a 2 GB length prefix, a message that
    never ends, a replayed seq, an impossible snapshot, an unknown message type: each refused or
    ignored with a log line; the phone keeps running and no inbox row is lost or invented."""
    setup = Setup()
    phone = setup.phone()
    wait_for(lambda: "listening" in setup.log("phone.log"), 20, "the phone listening")
    port = setup.phone_port
    # Plaintext gRPC.
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        list(link_pb2_grpc.PhoneLinkStub(channel).Connect(iter([link_pb2.WearableMessage()]), timeout=3))
        raise AssertionError("plaintext accepted")
    except grpc.RpcError:
        pass
    # TLS without a client certificate.
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
            with context.wrap_socket(raw) as tls:
                tls.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
                assert tls.recv(1) == b"", "a TLS client without a certificate was served"
    except (ssl.SSLError, ConnectionError, OSError):
        pass
    # Another certificate (a stranger's identity).
    stranger = tempfile.mkdtemp(prefix="stranger-")
    run([f"{BIN}/wearbridge", "identity", "--storage", stranger, "--name", "pi"])
    replies = python_wearable(setup, [link_pb2.WearableMessage(hello=link_pb2.Hello(outbox_epoch="x"))], key_dir=stranger)
    assert replies and isinstance(replies[-1], grpc.RpcError), f"a stranger was served: {replies}"
    stranger_fp = run([f"{BIN}/wearbridge", "identity", "--storage", stranger]).stdout.split()[1]
    wait_for(lambda: stranger_fp in setup.log("phone.log"), 10, "the refusal naming the stranger's fingerprint")
    # Garbage bytes.
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
        raw.sendall(os.urandom(4096))
        time.sleep(0.3)
    # A 2 GB length prefix and a message that never ends, over HTTP/2 with the pinned certificate.
    oversize = h2_send(setup, bytes([0, 0x7F, 0xFF, 0xFF, 0xFF]) + b"\x0a\x00", end=False)
    assert oversize in ("reset", "closed") or oversize.startswith("status"), f"2 GB prefix: {oversize}"
    hanging = threading.Thread(target=h2_send, args=(setup, bytes([0, 0, 0, 0, 100]) + b"0123456789", False, 8))
    hanging.start()
    # Meanwhile a real exchange: hello, two messages, a replay, an impossible snapshot, an unknown kind.
    epoch = "python-epoch"
    started = link_pb2.Payload(session_started=link_pb2.SessionStarted(session="s1", activity="running"))
    split = link_pb2.Payload(split=link_pb2.SplitCompleted(session="s1", index=1, distance_m=1000))
    impossible = link_pb2.Payload(snapshot=link_pb2.Snapshot(elapsed_s=10, moving_s=20))
    unknown = link_pb2.Payload.FromString(b"\x9a\x06\x02\x08\x01")
    replies = python_wearable(setup, [
        link_pb2.WearableMessage(hello=link_pb2.Hello(wearable_name="py", outbox_epoch=epoch, outbox_head=4, protocol_version=1)),
        envelope(1, link_pb2.MESSAGE_CLASS_CRITICAL, started),
        envelope(2, link_pb2.MESSAGE_CLASS_CRITICAL, split),
        envelope(1, link_pb2.MESSAGE_CLASS_CRITICAL, started),
        envelope(3, link_pb2.MESSAGE_CLASS_SNAPSHOT, impossible),
        envelope(4, link_pb2.MESSAGE_CLASS_NOTICE, unknown),
    ])
    hanging.join(15)
    welcome = [r for r in replies if not isinstance(r, grpc.RpcError) and r.HasField("welcome")]
    acks = [r.ack.through_seq for r in replies if not isinstance(r, grpc.RpcError) and r.HasField("ack")]
    assert welcome and welcome[0].welcome.high_water_mark == 0, replies
    assert acks and acks[-1] == 4, f"acks {acks}"
    got = setup.inbox()
    assert [(s, k) for (s, _, k) in got] == [(1, "session_started"), (2, "split"), (4, "unknown")], got
    log = setup.log("phone.log")
    for needle in ("refused a TLS peer", "ignored a snapshot with impossible values",
                   "stored a message of a kind this phone does not know"):
        assert needle in log, f"no log line: {needle}"
    # The same again: everything at or below the mark is a resend, nothing is stored twice.
    python_wearable(setup, [
        link_pb2.WearableMessage(hello=link_pb2.Hello(outbox_epoch=epoch, outbox_head=4)),
        envelope(2, link_pb2.MESSAGE_CLASS_CRITICAL, split),
    ])
    assert setup.inbox() == got
    assert phone.poll() is None, "the phone died"
    return {"inbox": len(got)}


def h2_send(setup, body, end=True, hold=0):
    """A raw HTTP/2 gRPC request over TLS with the wearable's pinned certificate: what the phone
    does with a body no gRPC library would send."""
    import h2.config
    import h2.connection
    import h2.events
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    context.load_cert_chain(f"{setup.wear_dir}/identity.crt.pem", f"{setup.wear_dir}/identity.key.pem")
    context.set_alpn_protocols(["h2"])
    with socket.create_connection(("127.0.0.1", setup.phone_port), timeout=10) as raw:
        with context.wrap_socket(raw, server_hostname="wearbridge-phone") as tls:
            connection = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
            connection.initiate_connection()
            connection.send_headers(1, [(":method", "POST"), (":scheme", "https"), (":authority", "phone"),
                                        (":path", "/wearbridge.link.v1.PhoneLink/Connect"),
                                        ("content-type", "application/grpc"), ("te", "trailers")])
            connection.send_data(1, body, end_stream=end)
            tls.sendall(connection.data_to_send())
            deadline = time.time() + (hold or 5)
            while time.time() < deadline:
                tls.settimeout(max(0.1, deadline - time.time()))
                try:
                    data = tls.recv(65536)
                except (socket.timeout, TimeoutError):
                    break
                if not data:
                    return "closed"
                for event in connection.receive_data(data):
                    if isinstance(event, h2.events.StreamReset):
                        return "reset"
                    if isinstance(event, (h2.events.TrailersReceived, h2.events.ResponseReceived)):
                        status = dict((k.decode() if isinstance(k, bytes) else k, v) for k, v in event.headers).get("grpc-status")
                        if status is not None and str(status) not in ("0", "b'0'"):
                            return f"status {status}"
                tls.sendall(connection.data_to_send())
            return "open"


class PythonPhone(link_pb2_grpc.PhoneLinkServicer):
    """An independent phone: grpcio from the .proto, acks after an (in-memory) commit."""

    def __init__(self, welcome_mark=0, command=None):
        self.welcome_mark = welcome_mark
        self.command = command
        self.received = []
        self.hellos = []

    def Connect(self, request_iterator, context):
        import queue
        outgoing = queue.Queue()
        done = threading.Event()

        def read():
            mark = self.welcome_mark
            try:
                for message in request_iterator:
                    if message.HasField("hello"):
                        self.hellos.append(message.hello)
                        outgoing.put(link_pb2.PhoneMessage(welcome=link_pb2.Welcome(high_water_mark=mark)))
                    elif message.HasField("envelope"):
                        e = message.envelope
                        if e.seq > mark and getattr(e, "class") != link_pb2.MESSAGE_CLASS_SNAPSHOT:
                            self.received.append((e.seq, e.payload.WhichOneof("kind"), e.payload))
                            mark = e.seq
                        outgoing.put(link_pb2.PhoneMessage(ack=link_pb2.Ack(through_seq=mark)))
                        if self.command and any(k == "session_started" for _, k, _ in self.received):
                            outgoing.put(link_pb2.PhoneMessage(command=self.command))
                            self.command = None
            except grpc.RpcError:
                pass  # the wearable went away: its next connection starts again with a hello
            finally:
                done.set()
                outgoing.put(None)

        threading.Thread(target=read, daemon=True).start()
        while True:
            item = outgoing.get()
            if item is None:
                return
            yield item


def python_phone_server(setup, servicer):
    key, cert, peer = grpc_credentials(setup, setup.phone_dir, setup.wear_dir)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8),
                         options=[("grpc.keepalive_permit_without_calls", 1),
                                  ("grpc.http2.min_ping_interval_without_data_ms", 5000)])
    link_pb2_grpc.add_PhoneLinkServicer_to_server(servicer, server)
    credentials = grpc.ssl_server_credentials([(key, cert)], root_certificates=peer, require_client_auth=True)
    server.add_secure_port(f"127.0.0.1:{setup.phone_port}", credentials)
    server.start()
    return server


def test_python_phone():
    """The real wearable against a phone written with grpcio from the .proto: hello, welcome,
    envelopes in order, a command answered ACK through the outbox; then a phone whose welcome
    claims a mark beyond anything sent is refused, and a phone with another certificate too."""
    setup = Setup()
    # The phone's identity exists (setup made it); the Python phone serves with it.
    command_id = str(uuid.uuid4())
    servicer = PythonPhone(command=link_pb2.Command(command_id=command_id, kind=link_pb2.COMMAND_KIND_PAUSE,
                                                   valid_for_ms=60000))
    server = python_phone_server(setup, servicer)
    setup.gpsfake(cycle="0.05")
    wearable = setup.wearable()
    reply = wait_for(lambda: next((p.command_reply for _, k, p in servicer.received if k == "command_reply"), None),
                     60, "the wearable's answer to the Python phone's command")
    assert reply.command_id == command_id and reply.ok and reply.kind == link_pb2.COMMAND_KIND_PAUSE, reply
    seqs = [s for s, _, _ in servicer.received]
    assert seqs == sorted(set(seqs)), seqs
    assert servicer.hellos[0].outbox_epoch and servicer.hellos[0].protocol_version == 1
    server.stop(0).wait()
    # A welcome claiming more than the outbox ever held: the wearable closes, says why, retries.
    liar = PythonPhone(welcome_mark=10_000_000)
    server = python_phone_server(setup, liar)
    wait_for(lambda: "broke the link's contract" in setup.log("wear.log"), 30, "the wearable refusing the mark")
    server.stop(0).wait()
    # A phone presenting another certificate: refused during the handshake, with its fingerprint.
    stranger = tempfile.mkdtemp(prefix="stranger-phone-")
    run([f"{BIN}/wearbridge", "identity", "--storage", stranger, "--name", "wearbridge-phone"])
    stranger_fp = run([f"{BIN}/wearbridge", "identity", "--storage", stranger]).stdout.split()[1]
    setup.phone_dir_real = setup.phone_dir
    setup.phone_dir = stranger
    server = python_phone_server(setup, PythonPhone())
    wait_for(lambda: stranger_fp in setup.log("wear.log"), 30, "the wearable refusing a stranger phone")
    server.stop(0).wait()
    assert wearable.poll() is None, "the wearable died"
    return {"messages": len(seqs)}


def wiggly_gpx(path, name, kilometres=12):
    """A GPX track a point every 2 m along a road that wanders 5 m either side every 50 m: a
    course whose simplified form keeps about 40 points a kilometre (several parts on the link)."""
    import math
    lat0, lon0 = 48.2082, 16.3738
    points = []
    for k in range(int(kilometres * 500) + 1):
        east = 2.0 * k
        north = 5.0 * math.sin(2 * math.pi * east / 50)
        points.append((lat0 + north / 111_200, lon0 + east / (111_320 * math.cos(math.radians(lat0)))))
    return harness.write_gpx_track(path, name, points)


def course_send(setup, name, timeout):
    return run([f"{BIN}/wearbridge-phone", "course", "send", name, "--config", setup.phone_config,
                "--timeout", str(timeout)], timeout=timeout + 20, check=False)


def test_course_transfer():
    """A course added on the phone and sent to the real wearable over the real link: queued while
    the wearable is down, its parts slowed by the proxy and the wearable killed -9 once the first
    is answered, then sent again: the wearable keeps it once, whole, each part's command applied
    once; a start naming it follows it, one naming another is refused."""
    setup = Setup()
    proxy = FaultProxy(setup.phone_port)
    setup.write_wear_config(dial_port=proxy.port)
    with open(setup.wear_config) as f:
        config = f.read().replace("autostart = true", "autostart = false")
    with open(setup.wear_config, "w") as f:
        f.write(config)
    gpx = os.path.join(setup.dir, "wiggle.gpx")
    file_points = wiggly_gpx(gpx, "Donau wiggle", kilometres=40)
    added = run([f"{BIN}/wearbridge-phone", "course", "add", gpx, "--config", setup.phone_config]).stdout.strip()
    assert added.startswith('course "Donau wiggle" added: ') and f"{file_points} points in" in added, added
    listed = json.loads(run([f"{BIN}/wearbridge-phone", "course", "list", "--json", "--config",
                             setup.phone_config]).stdout.splitlines()[0])
    parts = -(-listed["bytes"] // 4096)
    assert parts >= 3, listed
    phone = setup.phone()
    # The wearable is not running: the parts wait.
    queued = course_send(setup, "Donau wiggle", 3)
    assert queued.returncode == 2 and f"QUEUED course \"Donau wiggle\": 0 of {parts} parts answered" in queued.stdout, \
        queued.stdout
    setup.gpsfake(cycle="0.05")
    proxy.delay = 0.3
    wearable = setup.wearable()

    def answered():
        db = sqlite3.connect(f"file:{setup.phone_dir}/wearbridge-phone.sqlite?mode=ro", uri=True, timeout=10)
        try:
            return db.execute("SELECT count(*) FROM command WHERE kind = 'course' AND state = 'answered'").fetchone()[0]
        finally:
            db.close()

    # Killed as soon as its data log holds a part (polled every 2 ms), or else its first answer.
    def parts_on_disk():
        try:
            return setup.wear_query("SELECT count(*) FROM course_part")[0][0]
        except sqlite3.Error:
            return 0  # not created yet

    wait_for(lambda: answered() >= 1 or parts_on_disk() >= 1, 60, "the first part on the wearable's disk",
             every=0.002)
    at_kill = answered()
    kill9(wearable)
    proxy.delay = 0.0
    kept_before = setup.wear_query("SELECT count(*) FROM course")[0][0]
    parts_before = setup.wear_query("SELECT count(*) FROM course_part")[0][0]
    wearable = setup.wearable()
    sent = course_send(setup, "Donau wiggle", 60)
    assert sent.returncode == 0 and sent.stdout.startswith(f'SENT course "Donau wiggle" to pi in {parts} parts: '
                                                            'course "Donau wiggle" kept: '), sent.stdout
    assert f'{listed["points"]} points' in sent.stdout, sent.stdout
    # Sent again: answered from the phone's own record at once, nothing applied twice.
    again = course_send(setup, "Donau wiggle", 10)
    assert again.returncode == 0 and again.stdout == sent.stdout, again.stdout
    kept = setup.wear_query("SELECT name, length(bytes) FROM course")
    assert kept == [("Donau wiggle", listed["bytes"])], kept
    assert setup.wear_query("SELECT count(*) FROM course_part")[0][0] == 0
    rows = setup.wear_query("SELECT id, accepted FROM command WHERE command = 'course'")
    assert len(rows) == parts and len({cid for cid, _ in rows}) == parts and all(ok for _, ok in rows), rows
    # A start naming another course is refused; one naming this course follows it.
    other = run([f"{BIN}/wearbridge-phone", "start", "--course", "Ringstrasse", "--config", setup.phone_config],
                timeout=60, check=False).stdout.strip()
    assert other.startswith("FAIL invalid start") and 'no course named "Ringstrasse"' in other, other
    started = run([f"{BIN}/wearbridge-phone", "start", "--course", "Donau wiggle", "--config", setup.phone_config],
                  timeout=60, check=False).stdout.strip()
    assert started.startswith("ACK start"), started
    status = json.loads(run([f"{BIN}/wearbridge", "ctl", "status", "--json", "--socket",
                             os.path.join(setup.dir, "control.sock")]).stdout)
    status = status.get("status", status)
    assert status["course"]["name"] == "Donau wiggle" and abs(status["course"]["length_m"] - listed["length_m"]) < 0.1, status
    following = setup.wear_query("SELECT detail FROM event WHERE kind = 'course_following'")
    assert len(following) == 1 and "Donau wiggle" in following[0][0], following
    # Not forgotten while the session follows it: the phone forgets its copy, the wearable refuses.
    busy = run([f"{BIN}/wearbridge-phone", "course", "remove", "Donau wiggle", "--config", setup.phone_config],
               timeout=60, check=False).stdout
    assert 'removed course "Donau wiggle" from the phone' in busy and "FAIL alreadyActive" in busy \
        and "end it first" in busy, busy
    assert setup.wear_query("SELECT name FROM course") == [("Donau wiggle",)]
    listed_wear = run([f"{BIN}/wearbridge", "courses", "--storage", setup.wear_dir]).stdout
    assert listed_wear.startswith("Donau wiggle: ") and f'{listed["points"]} points' in listed_wear, listed_wear
    # The session ends; backfilled, the phone's exports are the wearable's, the course named in each.
    ended = run([f"{BIN}/wearbridge-phone", "end", "--config", setup.phone_config], timeout=60).stdout
    session = ended.split("session=")[1].split(":")[0].split()[0]
    wait_for(lambda: backfill_state(setup, session)[1] == 1, 120, "the backfill complete")
    sizes = check_exports(setup, session)
    with open(f"{setup.dir}/wear.gpx") as f:
        assert "<desc>Course: Donau wiggle</desc>" in f.read(), "the GPX does not name the course"
    # Ended: the wearable forgets it, once; a removal of a course it does not keep is answered.
    gone = run([f"{BIN}/wearbridge-phone", "course", "remove", "Donau wiggle", "--config", setup.phone_config],
               timeout=60, check=False).stdout
    assert 'the phone keeps no course "Donau wiggle"' in gone and 'ACK remove course "Donau wiggle" on pi: ' \
        'course "Donau wiggle" removed' in gone, gone
    assert setup.wear_query("SELECT count(*) FROM course")[0][0] == 0
    assert run([f"{BIN}/wearbridge", "courses", "--storage", setup.wear_dir]).stdout.startswith("no course kept")
    again = run([f"{BIN}/wearbridge-phone", "course", "remove", "Donau wiggle", "--config", setup.phone_config],
                timeout=60, check=False).stdout
    assert "nothing to remove" in again, again
    refused = run([f"{BIN}/wearbridge", "ctl", "start", "--course", "Donau wiggle", "--socket",
                   os.path.join(setup.dir, "control.sock")], check=False).stdout
    assert "no course named" in refused, refused
    assert wearable.poll() is None and phone.poll() is None, "a program died"
    return {"file_points": file_points, "kept_points": listed["points"], "bytes": listed["bytes"], "parts": parts,
            "answered_when_killed": at_kill, "parts_on_disk_at_kill": parts_before, "kept_at_kill": kept_before,
            "exports_equal": sizes}

