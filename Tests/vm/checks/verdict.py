"""What the test VM's checks share (barometer.py, imu.py and the others here): a line per check, the JSON
files the guest left in OUT, and the verdict at the end."""
import json
import os
import sys


class Verdict:
    def __init__(self, out):
        self.out = out
        self.failures = []

    def check(self, ok, what, detail=""):
        print(("ok    " if ok else "FAIL  ") + what + (f" ({detail})" if detail else ""))
        if not ok:
            self.failures.append(what)

    def load(self, name):
        with open(os.path.join(self.out, name)) as f:
            return json.load(f)

    def finish(self):
        if self.failures:
            print(f"{len(self.failures)} check(s) failed")
            sys.exit(1)
        print("all checks passed")
