#!/usr/bin/env bash
# Fails when a process this test run started is still alive, naming it, and kills it: every test
# must end what it starts, also when it fails. scripts/test.sh marks the run with
# WEARBRIDGE_TEST_RUN, which every process it starts inherits (gpsfake's gpsd included).
set -euo pipefail
[ -n "${WEARBRIDGE_TEST_RUN:-}" ] || { echo "no-leftovers: WEARBRIDGE_TEST_RUN is not set" >&2; exit 2; }
python3 - "$WEARBRIDGE_TEST_RUN" <<'PY'
import os, signal, sys, time
marker = ("WEARBRIDGE_TEST_RUN=" + sys.argv[1]).encode()
ours = {os.getpid(), os.getppid()}
def leftovers():
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in ours:
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                if marker not in f.read().split(b"\0"):
                    continue
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                found.append((int(entry), f.read().replace(b"\0", b" ").decode(errors="replace").strip()))
        except OSError:
            pass
    return found
left = leftovers()
if not left:
    print("no-leftovers: the test run left no process behind")
    sys.exit(0)
for pid, command in left:
    print(f"no-leftovers: FAIL  pid {pid} still running: {command[:200]}", file=sys.stderr)
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
sys.exit(1)
PY
