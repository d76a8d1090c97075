"""The builds the end-to-end phases need beyond the suite's debug build (the arm64 packages, the arm64
test bundle, the sanitized fuzzer, the amd64 packages), each made once per run by the project's own
build commands, whichever phase asks first; a phase that asks while another makes it waits for it.

They run niced in a scheduling group of their own (an autogroup at nice 19: with autogroups, on in
Debian's kernel, a plain `nice` ranks a process only within its own session), so that the phases
beside them, which wait on real clocks, peers and emulated guests, take the CPU first; the builds
take what they leave. Each build's output goes to .build/test-builds/NAME.log; a build that fails
fails the phase that asked for it with the end of its log."""
import fcntl
import json
import os
import subprocess
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DIR = os.path.join(ROOT, ".build", "test-builds")
# A guard against a hang, not a deadline: from nothing on two cores the arm64 release build of both
# programs and its dependencies takes about 25 minutes alone.
GUARD = 90 * 60


def session():
    """The run these builds belong to (the runner's, inherited by its workers)."""
    return os.environ.get("WEARBRIDGE_TEST_SESSION", f"{os.getpid()}")


def background(command, nice=19):
    """`command` (a list) wrapped to run at a low priority (`nice`), in the scheduling group of its
    session (run it with start_new_session, as run() does), with the builds' own environment."""
    return ["env", "-i", *[f"{name}={value}" for name, value in environment().items()],
            "bash", "-c", f'echo {nice} > /proc/self/autogroup 2>/dev/null; exec nice -n {nice} ionice -c 3 "$@"',
            "build", *command]


def run(command, timeout, nice=19, **kwargs):
    """`command` run as background() says, in a session of its own, ended whole at `timeout` s
    (subprocess.TimeoutExpired then): what it printed, as subprocess.run returns it."""
    if kwargs.pop("capture_output", False):
        kwargs.update(stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process = subprocess.Popen(background(command, nice), start_new_session=True, text=True, **kwargs)
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, 9)
        process.wait()
        raise
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


# What a build sees of the environment, whoever asks for it: SwiftPM makes a module anew whenever
# the environment it is run in differs from the last build's (one variable more is enough), so a
# build asked for by a test (with its marks) and again by the next would each compile again.
# scripts/test.sh builds the suite's debug build the same way.
KEPT = ("PATH", "HOME", "WEARBRIDGE_ARM64", "http_proxy", "https_proxy", "no_proxy")


def environment():
    kept = {name: os.environ[name] for name in KEPT if name in os.environ}
    kept["LANG"] = "C.UTF-8"
    return kept


# The arm64 packages are on the way to the longest phase (the Pi); among the builds they come first:
# an autogroup at nice 15 weighs about twice one at 19, and both next to nothing beside the tests'.
FIRST = 15


def made(name, command, parse=lambda out: out, nice=19):
    """What `command` printed (parsed), made once per run under a lock named `name`."""
    os.makedirs(DIR, exist_ok=True)
    memo = os.path.join(DIR, f"{name}.json")
    log = os.path.join(DIR, f"{name}.log")
    with open(os.path.join(DIR, f"{name}.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(memo):
            with open(memo) as f:
                kept = json.load(f)
            if kept.get("session") == session():
                if kept.get("failed"):
                    raise AssertionError(f"the {name} build failed earlier in this run; its log: {log}")
                return kept["value"]
        began = time.time()
        with open(log, "w") as out:
            out.write(f"$ {' '.join(command)}\n")
            out.flush()
            try:
                result = run(command, GUARD, nice, cwd=ROOT, stdout=subprocess.PIPE, stderr=out)
            except subprocess.TimeoutExpired:
                result = None
            if result is not None:
                out.write(result.stdout)
        took = round(time.time() - began)
        if result is None or result.returncode != 0:
            with open(memo, "w") as f:
                json.dump({"session": session(), "failed": True, "seconds": took}, f)
            with open(log, errors="replace") as f:
                tail = "".join(f.readlines()[-30:])
            why = f"still running after {GUARD} s" if result is None else f"exit {result.returncode}"
            raise AssertionError(f"the {name} build ({' '.join(command)}) failed: {why}; its log: {log}\n{tail}")
        value = parse(result.stdout)
        with open(memo, "w") as f:
            json.dump({"session": session(), "value": value, "seconds": took}, f)
        print(f"builds: {name} made in {took} s")
        return value


def arm64_toolchain():
    """The cross toolchain (scripts/build/arm64-toolchain.sh): the arm64 sysroot's path."""
    made("arm64-toolchain", ["scripts/build/arm64-toolchain.sh"], nice=FIRST)
    return subprocess.run(["scripts/build/arm64-toolchain.sh", "--sysroot"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()


def arm64_packages():
    """Both programs' arm64 packages (scripts/build/package.sh --arch arm64): their paths."""
    arm64_toolchain()
    return made("arm64-packages", ["scripts/build/package.sh", "--arch", "arm64"],
                parse=lambda out: out.strip().splitlines()[-2:], nice=FIRST)


def arm64_test_bundle():
    """The arm64 test bundle of the pure cores' and parsers' suites (scripts/build/arm64-tests.sh --build-only)."""
    arm64_toolchain()
    return made("arm64-tests", ["scripts/build/arm64-tests.sh", "--build-only"])


def fuzzer():
    """wearbridge-fuzz built with libFuzzer and AddressSanitizer (scripts/build/fuzz-build.sh): its path."""
    return made("fuzzer", ["scripts/build/fuzz-build.sh"], parse=lambda out: out.strip().splitlines()[-1])


def amd64_packages():
    """Both programs' packages for this machine (scripts/build/package.sh): their paths."""
    return made("amd64-packages", ["scripts/build/package.sh"], parse=lambda out: out.strip().splitlines()[-2:])


if __name__ == "__main__":
    # scripts/test.sh's debug build runs in this same environment: `builds.py --environment`
    # prints it, a NAME=VALUE a line, for `env -i`.
    import sys
    if sys.argv[1:] != ["--environment"]:
        sys.exit("usage: builds.py --environment")
    print("\n".join(f"{name}={value}" for name, value in environment().items()))
