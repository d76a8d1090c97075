"""The figures a test returns, one JSON line each in .build/test-results/figures.jsonl (the run's,
begun afresh by scripts/test.sh): what docs/benchmarks.md and docs/testing.md quote, with the test
that measured them."""
import fcntl
import json
import os
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PATH = os.environ.get("WEARBRIDGE_FIGURES", os.path.join(ROOT, ".build", "test-results", "figures.jsonl"))


def record(test, value):
    os.makedirs(os.path.dirname(PATH), exist_ok=True)
    line = json.dumps({"test": test, "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "figures": value},
                      default=str)
    with open(PATH, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.write(line + "\n")
