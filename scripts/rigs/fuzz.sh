#!/usr/bin/env bash
# libFuzzer over every parser of bytes wearbridge does not control: builds
# wearbridge-fuzz with -sanitize=fuzzer,address (-DFUZZING) into .build-fuzz, seeds each target's
# corpus (data/: gpsd's regression logs, the HRM vectors; Fuzz/seeds; the configs),
# and runs TARGET, or every target, for SECONDS each, with the dictionaries in Fuzz/dictionaries.
# A crash, leak, timeout or sanitizer report fails the run; libFuzzer leaves the input in
# .build-fuzz/findings/TARGET/. Fix it and keep the input in Fuzz/regressions/TARGET/: the ordinary
# suite (scripts/test.sh) replays those and the seeds through the ordinary build.
# Prints, per target: executions, executions per second, coverage (edges) and corpus size.
# Usage: scripts/rigs/fuzz.sh [TARGET|all] [SECONDS per target, default 30]
#        FUZZ_RUNS=ci scripts/rigs/fuzz.sh all   the suite's run: a fixed number of inputs per target from
#        a fixed seed and a fresh corpus of the seeds alone, so that it is the same run every time.
set -euo pipefail
cd "$(dirname "$0")/../.."
targets=(gpsd att gatt payloads control config link speech)
want=${1:-all}
seconds=${2:-30}
[ "$want" = all ] || targets=("$want")
# The sanitized build (scripts/build/fuzz-build.sh), or the one FUZZ_BINARY names, already made.
binary=${FUZZ_BINARY:-$(scripts/build/fuzz-build.sh | tail -1)}
work=${FUZZ_WORK:-.build-fuzz/work}
[ "${FUZZ_RUNS:-}" != ci ] || { work=$(mktemp -d /tmp/wearbridge-fuzz.XXXXXX); trap 'rm -rf "$work"' EXIT; }
status=0
for target in "${targets[@]}"; do
    corpus="$work/corpus/$target"
    findings=".build-fuzz/findings/$target"
    mkdir -p "$corpus" "$findings"
    [ -d "Fuzz/seeds/$target" ] && cp -n Fuzz/seeds/"$target"/* "$corpus/" 2>/dev/null || true
    [ -d "Fuzz/regressions/$target" ] && cp -n Fuzz/regressions/"$target"/* "$corpus/" 2>/dev/null || true
    extra=()
    case $target in
    gpsd)
        cp -n data/gps-corpus/*.jsonl "$corpus/" 2>/dev/null || true
        extra=(-dict=Fuzz/dictionaries/gpsd.dict -max_len=16384)
        ;;
    att | gatt) extra=(-dict=Fuzz/dictionaries/att.dict -max_len=1024) ;;
    payloads)
        # The HRM vectors (selector 0), and an RSC and a treadmill payload (selectors 1, 2).
        python3 - data/hrm/vectors.json "$corpus" <<'PY'
import json, sys
vectors = json.load(open(sys.argv[1]))
for i, v in enumerate(vectors.get("valid", []) + vectors.get("invalid", [])):
    open(f"{sys.argv[2]}/hrm-{i}", "wb").write(bytes([0]) + bytes.fromhex(v["hex"].replace(" ", "")))
open(f"{sys.argv[2]}/rsc", "wb").write(bytes.fromhex("01 07 00 02 aa 64 00 10 27 00 00".replace(" ", "")))
open(f"{sys.argv[2]}/treadmill", "wb").write(bytes.fromhex("02 04 00 e8 03 10 27 00".replace(" ", "")))
PY
        extra=(-max_len=64)
        ;;
    control) extra=(-max_len=8192) ;;
    config) cp -n config/*.toml "$corpus/" 2>/dev/null || true; extra=(-max_len=8192) ;;
    link) extra=(-max_len=4096) ;;
    speech) extra=(-max_len=4096) ;;
    esac
    log="$work/$target.log"
    if [ "${FUZZ_RUNS:-}" = ci ]; then
        # About 20 s each on this machine (gpsd and config run slowest under the sanitizers).
        case $target in gpsd | config) runs=1500 ;; *) runs=60000 ;; esac
        budget=(-runs="$runs" -seed=1)
    else
        budget=(-max_total_time="$seconds")
    fi
    set +e
    WEARBRIDGE_FUZZ_TARGET=$target ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=Fuzz/lsan.supp \
        "$binary" "$corpus" "${extra[@]}" "${budget[@]}" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$findings/" -print_final_stats=1 >"$log" 2>&1
    code=$?
    set -e
    executed=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo 0)
    units=$(find "$corpus" -type f | wc -l)
    if [ "$code" -ne 0 ]; then
        status=1
        echo "FAIL $target: libFuzzer exited $code after $executed runs; input in $findings/ (log $log)"
        grep -m5 -E 'ERROR|SUMMARY|Fatal|panic' "$log" || tail -5 "$log"
    else
        echo "ok   $target: $executed runs, $rate/s, coverage $cov edges, corpus $units inputs"
    fi
done
exit $status
