"""The end-to-end suite's phases, how they are scheduled on the runner's workers, and the table of
what each took, printed at the end of a run.

A phase is a folder of Tests/ with test files in it, and its marker: `pytest -m relay` runs the
relay's, `pytest -m "not vm and not pi"` leaves the VMs out. Each phase runs whole on one worker
(its tests share their rigs: one relay cluster, one boot of a VM), and the phases run side by side,
the longest first, so that the two cores are kept busy while most phases wait on sockets, clocks,
peers and emulated guests."""
import dataclasses
import os
import time

from xdist.scheduler import LoadScopeScheduling

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@dataclasses.dataclass(frozen=True)
class Phase:
    name: str
    proves: str
    # About how long it takes on the CI machine with its builds kept: the longest start first.
    minutes: float
    # Needs root: VMs, chroots, qemu-user through binfmt_misc.
    root: bool = False


PHASES = [
    Phase("pi", "the arm64 packages installed by apt on a virtual Raspberry Pi, booted, run, cut off and "
          "upgraded", 30, root=True),
    Phase("vm", "one boot of Debian's kernel: the strap, bluetoothd's neighbours, headphones, footpods and "
          "treadmills, a barometer and an IMU through real kernel stacks", 27, root=True),
    Phase("builds", "every build command twice in a row, the second making nothing anew", 12, root=True),
    Phase("relay", "the relay's contract and its attackers on a real PostgreSQL, two wearables racing", 9),
    Phase("arm64", "the pure cores' and parsers' suites on arm64 under qemu-user", 8, root=True),
    Phase("fuzz", "libFuzzer over every parser, and every kept input replayed", 4),
    Phase("phone_link", "both programs over real TLS through faults, kills and a lossy network", 3),
    Phase("cues", "spoken cues on a real PulseAudio and ALSA", 2),
    Phase("dashboard", "the field dashboard in Debian's chromium, its API fuzzed", 1.5),
    Phase("demo", "the README's first command, and where it cannot work", 1.2),
    Phase("control", "the control socket under a flood", 0.3),
    Phase("exports", "exports read back by independent parsers", 0.3),
]
BY_NAME = {phase.name: phase for phase in PHASES}
ORDER = {phase.name: index for index, phase in enumerate(PHASES)}


def phase_of(path):
    """The phase of a test file: the folder of Tests/ it is in."""
    relative = os.path.relpath(str(path), TESTS)
    name = relative.split(os.sep)[0]
    if name not in BY_NAME:
        raise ValueError(f"{relative}: Tests/{name} is not a phase (Tests/rigs/phases.py lists them)")
    return name


def phase_of_nodeid(nodeid):
    """The phase of a test id (Tests/relay/test_relay.py::test_identity)."""
    parts = nodeid.split("::")[0].split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "Tests" else parts[0]


class PhaseScheduling(LoadScopeScheduling):
    """xdist's scheduling by scope, a phase being the scope: each phase whole on one worker. Each
    worker starts with the longest phase left (the collection's order); it is given its next phase
    when it is down to its last test, since an xdist worker runs a test only once it knows the next
    one (or that none comes). That next phase waits behind the last test, which may be long (the
    Pi's one test is the whole phase): it is the shortest left, so that the long ones go to workers
    that are free."""

    def _split_scope(self, nodeid):
        return phase_of_nodeid(nodeid)

    def _assign_work_unit(self, node):
        busy = self._pending_of(self.assigned_work.get(node, {})) > 0
        scope, work_unit = self.workqueue.popitem(last=busy)
        self.assigned_work.setdefault(node, {})[scope] = work_unit
        collection = self.registered_collections[node]
        node.send_runtest_some([collection.index(nodeid) for nodeid, completed in work_unit.items()
                                if not completed])

    def _reschedule(self, node):
        if node.shutting_down or node not in self.registered_collections:
            return  # (a worker replacing a crashed one, before its collection is in)
        if not self.workqueue:
            node.shutdown()
            return
        if self._pending_of(self.assigned_work[node]) > 1:
            return
        self._assign_work_unit(node)


class Table:
    """Each phase's tests, outcomes, worker and wall time, from the reports the workers send."""

    def __init__(self):
        self.rows = {}
        self.began = time.time()

    def add(self, report):
        name = phase_of_nodeid(report.nodeid)
        row = self.rows.setdefault(name, {"tests": set(), "failed": set(), "skipped": set(), "start": None,
                                          "stop": None, "worker": None})
        row["tests"].add(report.nodeid)
        if report.failed:
            row["failed"].add(report.nodeid)
        elif report.skipped:
            row["skipped"].add(report.nodeid)
        start, stop = getattr(report, "start", 0) or 0, getattr(report, "stop", 0) or 0
        if start:
            row["start"] = start if row["start"] is None else min(row["start"], start)
        if stop:
            row["stop"] = stop if row["stop"] is None else max(row["stop"], stop)
        node = getattr(report, "node", None)
        if node is not None:
            row["worker"] = node.gateway.id

    def lines(self, steps=()):
        """The table: the steps before the runner (from scripts/test.sh), then each phase."""
        out = [f"{'phase':<12} {'tests':>5} {'failed':>6} {'skipped':>7} {'worker':>6} {'began':>7} {'took':>7}  "
               "what it proves"]

        def clock(seconds):
            seconds = int(round(seconds))
            return f"{seconds // 60}:{seconds % 60:02d}"
        for name, seconds in steps:
            out.append(f"{name:<12} {'':>5} {'':>6} {'':>7} {'':>6} {'':>7} {clock(seconds):>7}  (scripts/test.sh)")
        for name in sorted(self.rows, key=lambda n: self.rows[n]["start"] or 0):
            row = self.rows[name]
            began = clock((row["start"] or self.began) - self.began)
            took = clock((row["stop"] or 0) - (row["start"] or 0)) if row["start"] else "-"
            proves = BY_NAME[name].proves if name in BY_NAME else ""
            out.append(f"{name:<12} {len(row['tests']):>5} {len(row['failed']):>6} {len(row['skipped']):>7} "
                       f"{row['worker'] or '-':>6} {'+' + began:>7} {took:>7}  {proves}")
        out.append(f"{'end to end':<12} {sum(len(r['tests']) for r in self.rows.values()):>5} "
                   f"{sum(len(r['failed']) for r in self.rows.values()):>6} "
                   f"{sum(len(r['skipped']) for r in self.rows.values()):>7} {'':>6} {'':>7} "
                   f"{clock(time.time() - self.began):>7}")
        return out
