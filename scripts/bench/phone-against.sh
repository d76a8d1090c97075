#!/usr/bin/env bash
# The phone's release figures beside a baseline revision's, measured in one run, alternating
# (baseline, this tree, baseline, ...), with ratios: the link's delivery latency (wearable commit to
# phone commit, p50 and p99) and catch-up after an outage (scripts/bench/link.py), the dashboard's
# event-to-DOM latency and the phone's CPU and RSS with 0 and 5 pages open (scripts/bench/dashboard.py),
# and the phone's CPU and RSS in a race through a local relay and with none (scripts/bench/relay-phone.py).
# Both sides are driven by this tree's scripts and rigs, with their own release builds.
#   scripts/bench/phone-against.sh REV [ROUNDS]      e.g. scripts/bench/phone-against.sh 12aae5f 2
# The baseline is checked out as a git worktree in .build-baseline/REV and built there (release).
# BENCH_PHONE_PARTS names the parts to run (default "link dashboard relay").
# Needs a quiet machine: about 7 minutes per side and round, after the builds.
set -euo pipefail
cd "$(dirname "$0")/../.."
rev=${1:?usage: scripts/bench/phone-against.sh REV [ROUNDS]}
rounds=${2:-2}
seconds=${BENCH_SECONDS:-20}
parts=${BENCH_PHONE_PARTS:-link dashboard relay}
wanted() { case " $parts " in *" $1 "*) return 0 ;; esac; return 1; }
root=$PWD
base="$root/.build-baseline/$rev"
out="$root/.build-baseline/phone-results-$rev-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
[ -d "$base" ] || git worktree add --detach "$base" "$rev" >/dev/null
build() { for product in wearbridge wearbridge-phone; do swift build -c release --product "$product" >/dev/null; done; }
(cd "$base" && build)
build
for round in $(seq "$rounds"); do
    for side in base new; do
        if [ "$side" = base ]; then dir=$base; else dir=$root; fi
        echo "round $round: $side ($dir)" >&2
        export WEARBRIDGE_BIN="$dir/.build/release"
        ! wanted link || BENCH_LINK_ROUNDS=0 python3 scripts/bench/link.py > "$out/$side-$round-link.json"
        ! wanted dashboard ||
            BENCH_SECONDS=$seconds python3 scripts/bench/dashboard.py > "$out/$side-$round-dashboard.json"
        ! wanted relay || python3 scripts/bench/relay-phone.py "$seconds" 1 > "$out/$side-$round-relay.txt"
    done
done
python3 - "$out" "$rounds" "$rev" <<'PY'
import json, math, os, re, statistics, sys
out, rounds, rev = sys.argv[1], int(sys.argv[2]), sys.argv[3]


def link(d):
    return {"link latency p50 (ms)": d["latency"]["p50_ms"], "link latency p99 (ms)": d["latency"]["p99_ms"],
            "catch-up from connection (s)": d["catch_up"]["seconds_from_connection"]}


def dashboard(d):
    return {"event to DOM p50 (ms)": d["event_to_dom_ms"]["p50"], "event to DOM p99 (ms)": d["event_to_dom_ms"]["p99"],
            "phone CPU, 0 pages (%)": d["phone_0_pages"]["cpu_percent"],
            "phone CPU, 5 pages (%)": d["phone_5_pages"]["cpu_percent"],
            "phone peak RSS, 5 pages (MB)": d["phone_5_pages"]["peak_rss_mb"]}


def relay(text):
    found = {}
    for line in text.splitlines():
        m = re.match(r"round 1, relay (on |off): phone CPU ([0-9.]+)% of a core, peak RSS ([0-9.]+) MB", line)
        if m:
            state = m.group(1).strip()
            found[f"phone CPU, relay {state} (%)"] = float(m.group(2))
            found[f"phone peak RSS, relay {state} (MB)"] = float(m.group(3))
    return found


def figures(side, r):
    result = {}
    for part, read in (("link.json", lambda f: link(json.load(f))), ("dashboard.json", lambda f: dashboard(json.load(f))),
                       ("relay.txt", lambda f: relay(f.read()))):
        if os.path.exists(f"{out}/{side}-{r}-{part}"):
            with open(f"{out}/{side}-{r}-{part}") as f:
                result.update(read(f))
    return result


sides = {side: [figures(side, r) for r in range(1, rounds + 1)] for side in ("base", "new")}
print(f"figure | baseline {rev} (per round) | this tree (per round) | ratio of medians (new/base)")
print("---|---|---|---")
for name in sides["base"][0]:
    b = [f.get(name, math.nan) for f in sides["base"]]
    n = [f.get(name, math.nan) for f in sides["new"]]
    ratio = statistics.median(n) / statistics.median(b) if statistics.median(b) else math.nan
    fmt = lambda xs: ", ".join(f"{x:.3g}" for x in xs)
    print(f"{name} | {fmt(b)} | {fmt(n)} | {ratio:.2f}x")
print(f"(raw output: {out}; lower is better for every figure)")
PY
