#!/usr/bin/env bash
# Export figures from release builds, in one run: a generated 12-hour session at 10 Hz with a beat a
# second (432 000 fixes, 43 200 beats, written through the session logic into a real data log by
# `wearbridge-bench make-session`), exported to each format; time, points per second and peak RSS
# (GNU time's maximum resident set). Baseline in the same run: the sqlite3 command dumping the
# same fix rows as CSV (reading the data, no core, no format).
set -euo pipefail
cd "$(dirname "$0")/../.."
HOURS=${EXPORT_BENCH_HOURS:-12}
swift build -c release --product wearbridge >/dev/null
swift build -c release --product wearbridge-bench >/dev/null
BIN="$(pwd)/.build/release"
WORK=$(mktemp -d /tmp/wb-export-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
"$BIN/wearbridge-bench" make-session --hours "$HOURS" --rate 10 --beats --pause-at 3600 --out "$WORK/data" >/dev/null
SESSION=$(sqlite3 "$WORK/data/wearbridge.sqlite" "SELECT id FROM session")
POINTS=$(sqlite3 "$WORK/data/wearbridge.sqlite" "SELECT count(*) FROM fix")
BEATS=$(sqlite3 "$WORK/data/wearbridge.sqlite" "SELECT count(*) FROM heart_rate")
echo "session: $POINTS fixes, $BEATS beats ($HOURS h at 10 Hz)"
measure() {  # label, command...: seconds and peak RSS in MB
    local label=$1; shift
    /usr/bin/time -f "%e %M" -o "$WORK/time" "$@" >/dev/null
    read -r seconds kib <"$WORK/time"
    python3 -c "import sys; s, k, n = float(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]); print(f'{sys.argv[4]:<10} {s:6.2f} s  {n / s:9.0f} points/s  peak RSS {k / 1024:5.1f} MB', end='')" \
        "$seconds" "$kib" "$POINTS" "$label"
    echo "$seconds" >"$WORK/last"
}
measure "sqlite3" sqlite3 -csv "$WORK/data/wearbridge.sqlite" "SELECT * FROM fix ORDER BY seq"
echo "   (baseline)"
base=$(cat "$WORK/last")
for format in gpx tcx fit csv; do
    measure "$format" "$BIN/wearbridge" export --storage "$WORK/data" --format "$format" -o "$WORK/out.$format" "$SESSION"
    python3 -c "import sys; print(f'   {float(sys.argv[1]) / float(sys.argv[2]):.1f}x the baseline, {sys.argv[3]} bytes')" \
        "$(cat "$WORK/last")" "$base" "$(stat -c %s "$WORK/out.$format")"
done
