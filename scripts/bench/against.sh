#!/usr/bin/env bash
# This tree's release figures beside a baseline revision's, measured in one run, alternating
# (baseline, this tree, baseline, ...), with ratios: core and engine throughput, memory of a
# 12-hour replay, and the daemon at 10 Hz (CPU, peak RSS, start -> READY=1, fsyncs).
#   scripts/bench/against.sh REV [ROUNDS]      e.g. scripts/bench/against.sh f5a7186 2
#   FIGURES=throughput scripts/bench/against.sh REV 5   only the throughput figures (no daemon builds)
# The baseline is checked out as a git worktree in .build-baseline/REV and built there (release,
# and the static deployment build the daemon figures use). Needs a quiet machine: about 6 minutes
# per side and round.
set -euo pipefail
cd "$(dirname "$0")/../.."
rev=${1:?usage: scripts/bench/against.sh REV [ROUNDS]}
rounds=${2:-2}
figures=${FIGURES:-throughput memory daemon}
root=$PWD
base="$root/.build-baseline/$rev"
out="$root/.build-baseline/results-$rev-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
[ -d "$base" ] || git worktree add --detach "$base" "$rev" >/dev/null
# The memory figure replays with its own side's `wearbridge`.
static=0
case $figures in *daemon*) static=1 ;; esac
# Only the products the figures run: the bench alone for throughput (a few minutes, not the whole
# package's release build).
products=wearbridge-bench
case $figures in *memory*) products="$products wearbridge" ;; esac
build() { for product in $products; do swift build -c release --product "$product" >/dev/null; done; }
(cd "$base" && build && { [ $static = 0 ] || scripts/build/build-release.sh >/dev/null; })
build
[ $static = 0 ] || scripts/build/build-release.sh >/dev/null
for round in $(seq "$rounds"); do
    for side in base new; do
        if [ "$side" = base ]; then dir=$base; else dir=$root; fi
        log="$out/$side-$round.txt"
        echo "round $round: $side ($dir)" >&2
        # Run from this tree so that both read this tree's data/ the same way.
        : >"$log"
        for figure in $figures; do
            case $figure in
                throughput) "$dir/.build/release/wearbridge-bench" throughput >>"$log" ;;
                memory) "$dir/.build/release/wearbridge-bench" memory --wearbridge "$dir/.build/release/wearbridge" >>"$log" ;;
                daemon) "$dir/.build/release/wearbridge-bench" daemon --wearbridge "$dir/.build-static/release/wearbridge" >>"$log" ;;
            esac
        done
    done
done
python3 - "$out" "$rounds" "$rev" <<'PY'
import re, statistics, sys
out, rounds, rev = sys.argv[1], int(sys.argv[2]), sys.argv[3]
figures = [
    ("core throughput (M fixes/s)", r"^core:.*= ([0-9.]+) M fixes/s", True),
    ("engine throughput (M fixes/s)", r"^engine:.*= ([0-9.]+) M fixes/s", True),
    ("JSON decoding (k lines/s)", r"^decode:.*= ([0-9.]+) k lines/s", True),
    ("12 h replay peak RSS (MB)", r"peak RSS ([0-9.]+) MB \(goal: < 50", False),
    ("12 h replay time (s)", r"replay took ([0-9.]+) s", False),
    ("start -> READY=1 median (ms)", r"median ([0-9.]+) ms", False),
    ("daemon CPU at 10 Hz (% of a core)", r"wearbridge CPU .* = ([0-9.]+)% of one core", False),
    ("daemon peak RSS at 10 Hz (MB)", r"wearbridge CPU .*peak RSS ([0-9.]+) MB", False),
    ("gpsd CPU in the same run (%)", r"gpsd +CPU .* = ([0-9.]+)% of one core", False),
    ("fsyncs per minute", r"^fsyncs while logging at 10 Hz: ([0-9.]+) per minute", False),
]
def values(side, pattern):
    found = []
    for r in range(1, rounds + 1):
        text = open(f"{out}/{side}-{r}.txt").read()
        m = re.search(pattern, text, re.M)
        found.append(float(m.group(1)) if m else float("nan"))
    return found
print(f"figure | baseline {rev} (per round) | this tree (per round) | ratio of medians (new/base)")
print("---|---|---|---")
for name, pattern, higher_better in figures:
    b, n = values("base", pattern), values("new", pattern)
    if all(x != x for x in b + n):
        continue  # a figure this run did not measure (FIGURES)
    ratio = statistics.median(n) / statistics.median(b) if statistics.median(b) else float("nan")
    fmt = lambda xs: ", ".join(f"{x:g}" for x in xs)
    print(f"{name} | {fmt(b)} | {fmt(n)} | {ratio:.2f}x" + (" (higher is better)" if higher_better else ""))
print(f"(raw output: {out})")
PY
