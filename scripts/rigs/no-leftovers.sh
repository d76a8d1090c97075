#!/usr/bin/env bash
# Fails when a process this test run started is still alive, naming it, and kills it: every test
# must end what it starts, also when it fails. scripts/test.sh marks the run with
# WEARBRIDGE_TEST_RUN, which every process it starts inherits (gpsfake's gpsd and a VM's qemu
# included); the runner's workers and tests mark theirs within it (Tests/rigs/leftovers.py).
set -euo pipefail
[ -n "${WEARBRIDGE_TEST_RUN:-}" ] || { echo "no-leftovers: WEARBRIDGE_TEST_RUN is not set" >&2; exit 2; }
cd "$(dirname "$0")/../.."
python3 - "$WEARBRIDGE_TEST_RUN" <<'PY'
import sys
sys.path.insert(0, "Tests/rigs")
import leftovers
left = leftovers.marked(sys.argv[1])
if not left:
    print("no-leftovers: the test run left no process behind")
    sys.exit(0)
for pid, command in left:
    print(f"no-leftovers: FAIL  pid {pid} still running: {command[:200]}", file=sys.stderr)
leftovers.kill(left)
sys.exit(1)
PY
