"""The end-to-end runner's own plugin (pytest, with xdist's workers): the phases as markers, their
scheduling, every process a test starts stopped with it, and the phase table at the end.
Tests/rigs/phases.py lists the phases; docs/testing.md says what each proves."""
import json
import os
import sys
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
for folder in ("rigs", "vm", "ble", "iio"):
    path = os.path.join(HERE, folder)
    if path not in sys.path:
        sys.path.insert(0, path)

import figures  # noqa: E402
import harness  # noqa: E402
import leftovers  # noqa: E402
import phases  # noqa: E402

TABLE = phases.Table()
WORKER = False


def pytest_configure(config):
    for phase in phases.PHASES:
        config.addinivalue_line("markers", f"{phase.name}: {phase.proves}")
    config.addinivalue_line("markers", "root: needs root (VMs, chroots, qemu-user); -m 'not root' leaves them out")
    config.addinivalue_line("markers", "bench: a figure for docs/benchmarks.md, not a check: run only when -m names it")
    config.addinivalue_line("markers", "extra: a check beyond a release's (the amd64 wearable): run only when -m names it")
    global WORKER
    worker = getattr(config, "workerinput", None)
    WORKER = worker is not None
    if worker is None:
        # The controller (or a run without workers): a mark of its own within the run's (which
        # scripts/test.sh sets, and other processes of the caller may carry too); its workers
        # inherit it and mark theirs within it.
        os.environ[leftovers.MARK] = leftovers.child_mark(
            os.environ.get(leftovers.MARK, "pytest"), f"runner-{os.getpid()}-{int(time.time())}")
        os.environ["WEARBRIDGE_TEST_SESSION"] = os.environ.get("WEARBRIDGE_TEST_SESSION") or \
            f"{os.getpid()}-{int(time.time())}"
    else:
        os.environ[leftovers.MARK] = leftovers.child_mark(os.environ[leftovers.MARK], worker["workerid"])
    harness.ENV[leftovers.MARK] = os.environ[leftovers.MARK]
    config.stash[WORKER_MARK] = os.environ[leftovers.MARK]


WORKER_MARK = pytest.StashKey[str]()


def pytest_collection_modifyitems(config, items):
    """Each test marked with its phase (and `root` where the phase needs it), the phases in the
    scheduler's order: the longest first; benchmarks and extras left out unless -m names them."""
    expression = config.getoption("markexpr") or ""
    chosen, left_out = [], []
    for item in items:
        if any(item.get_closest_marker(name) and name not in expression for name in ("bench", "extra")):
            left_out.append(item)
        else:
            chosen.append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = chosen
    for item in items:
        name = phases.phase_of(item.path)
        item.add_marker(getattr(pytest.mark, name))
        if phases.BY_NAME[name].root:
            item.add_marker(pytest.mark.root)
    items.sort(key=lambda item: phases.ORDER[phases.phase_of(item.path)])


def pytest_runtest_setup(item):
    if item.get_closest_marker("root") and os.geteuid() != 0:
        pytest.skip("needs root (VMs, chroots, qemu-user through binfmt_misc); -m 'not root' leaves it out")


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    # The phases in the collection's order (the longest first), not xdist's default of the scope
    # with the most tests first, which would start the Pi's one long test last.
    config.option.loadscopereorder = False
    return phases.PhaseScheduling(config, log)


@pytest.fixture(autouse=True)
def own_processes(request):
    """The test's processes carry its own mark: those it started through the rig are stopped when it
    ends, and any still alive then fail it. A module whose tests share its rig's processes (a phone
    one test restarts serves the next) says so with SHARED_RIG = True: its processes are stopped and
    checked when the module ends."""
    parent = request.config.stash[WORKER_MARK]
    mark = leftovers.child_mark(parent, request.node.nodeid.split("::", 1)[-1])
    shared = getattr(request.module, "SHARED_RIG", False)
    saved_env = dict(harness.ENV)
    first = len(harness.PROCESSES)
    os.environ[leftovers.MARK] = harness.ENV[leftovers.MARK] = mark
    try:
        yield mark
    finally:
        if not shared:
            harness.stop_all(since=first)
        os.environ[leftovers.MARK] = parent
        harness.ENV.clear()
        harness.ENV.update(saved_env)
        harness.ENV[leftovers.MARK] = parent
        left = [] if shared else leftovers.marked(mark)
        if left:
            leftovers.kill(left)
            pytest.fail(f"the test left processes running (killed now): {leftovers.describe(left)}", pytrace=False)


@pytest.fixture(scope="module", autouse=True)
def module_processes(request):
    """What a module's shared rigs started (a cluster, a booted VM) stopped with them: the check
    runs after the module's other fixtures are torn down."""
    yield
    mark = request.config.stash[WORKER_MARK]
    left = leftovers.marked(mark)
    if left:
        leftovers.kill(left)
        pytest.fail(f"the module's rigs left processes running (killed now): {leftovers.describe(left)}",
                    pytrace=False)


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    """Calls the test as pytest would, and keeps what it returns: its figures (a dict or a line),
    printed, in the JUnit report's properties and in .build/test-results/figures.jsonl, whence
    docs/benchmarks.md and docs/testing.md take them."""
    arguments = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
    result = pyfuncitem.obj(**arguments)
    if result is not None:
        figures.record(pyfuncitem.nodeid, result)
        pyfuncitem.user_properties.append(("figures", json.dumps(result, default=str)))
        print(f"figures: {json.dumps(result, default=str)}")
    return True


def pytest_runtest_logreport(report):
    if WORKER:
        return  # a worker: its controller keeps the table
    TABLE.add(report)
    if report.failed:
        # Said when it happens, not only in the summary at the end: a phase that fails early is
        # seen (and can be looked into) while the others still run.
        print(f"\nFAILED {report.nodeid} ({report.when}, {report.duration:.0f} s):\n{report.longreprtext[-3000:]}",
              flush=True)


def pytest_terminal_summary(terminalreporter, config):
    if WORKER:
        return
    steps = []
    path = os.environ.get("WEARBRIDGE_TEST_STEPS")
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                name, _, seconds = line.rstrip("\n").rpartition("\t")
                if name:
                    steps.append((name, float(seconds)))
    terminalreporter.section("phases")
    for line in TABLE.lines(steps):
        terminalreporter.write_line(line)
