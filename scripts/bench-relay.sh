#!/usr/bin/env bash
# The relay's scale figures (docs/benchmarks.md, "The relay"), release build: a fresh local relay
# (scripts/relay-local.sh), then `wearbridge-bench relay-scale` three times in one run: the baseline
# (1 race, the design: NOTIFY only for critical messages and events, snapshots polled), RACES races
# as designed, and RACES races with every snapshot notified (which stalls on NOTIFY's commit lock;
# the benchmark reports a stall 30 s after its window instead of waiting for it). The load generator logs in with one
# certificate (CN loadgen) that pg_ident maps to each simulated runner; everything else is as a phone
# meets it: TLS, row-level security, the plausibility trigger, NOTIFY. Prints ratios to the baseline.
#   scripts/bench-relay.sh [RACES=500] [SECONDS=60]      (MODES="poll" runs only that one)
set -euo pipefail
cd "$(dirname "$0")/.."
RACES=${1:-500}
SECONDS_=${2:-60}
swift build -c release --product wearbridge-phone >/dev/null
swift build -c release --product wearbridge-bench >/dev/null
BIN=$(swift build -c release --show-bin-path)
DIR=$(mktemp -d /var/tmp/wearbridge-relay-bench-XXXXXX)
chmod 755 "$DIR"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
trap 'scripts/relay-local.sh "$DIR" --stop immediate; rm -rf "$DIR"' EXIT
WEARBRIDGE_PHONE=$BIN/wearbridge-phone scripts/relay-local.sh "$DIR" --port "$PORT" loadgen >/dev/null
{
    for prefix in a b c; do
        for i in $(seq 1 $((RACES * 2))); do printf 'bench loadgen %s%05d\n' "$prefix" "$i"; done
    done
} > "$DIR/data/pg_ident.conf"
sed -i '1i hostssl all +relay_runner 127.0.0.1/32 cert map=bench' "$DIR/data/pg_hba.conf"
as_server() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$DIR/data/pg_ident.conf"
as_server "$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)/pg_ctl" -D "$DIR/data" reload >/dev/null
sleep 1
bench() { # prefix races seconds [--poll-snapshots]
    "$BIN/wearbridge-bench" relay-scale --admin-url "postgresql://relay_admin@/postgres?host=$DIR/run&port=$PORT" \
        --port "$PORT" --ca "$DIR/tls/ca.crt" --cert "$DIR/tls/loadgen.crt" --key "$DIR/tls/loadgen.key" \
        --data "$DIR/data" --prefix "$1" --races "$2" --seconds "$3" "${@:4}"
}
echo "machine: $(nproc) cores; PostgreSQL $(as_server "$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)/postgres" --version | awk '{print $3}')"
MODES=${MODES:-base poll notify}
for mode in $MODES; do
    case $mode in
        base) bench a 1 "$SECONDS_" --poll-snapshots | tee "$DIR/base.txt" ;;
        poll) bench b "$RACES" "$SECONDS_" --poll-snapshots | tee "$DIR/poll.txt" ;;
        notify) bench c "$RACES" "$SECONDS_" | tee "$DIR/notify.txt" ;;
    esac
done
[ "$MODES" = "base poll notify" ] || exit 0
python3 - "$DIR" <<'PY'
import math, sys
def read(name):
    line = next(l for l in open(f"{sys.argv[1]}/{name}.txt") if l.startswith("RESULT"))
    return {k: float(v) for k, v in (p.split("=") for p in line.split()[1:])}
base, notify, poll = read("base"), read("notify"), read("poll")
print("ratios to the baseline (1 race, snapshots polled), same run:")
for name, run in (("poll", poll), ("notify", notify)):
    print(f"  {name:6}: insert p99 x{run['insert_p99_ms'] / base['insert_p99_ms']:.1f}, "
          f"relay leg p50 x{run['leg_p50_ms'] / base['leg_p50_ms']:.1f} p99 x{run['leg_p99_ms'] / base['leg_p99_ms']:.1f}, "
          f"inserts/s {run['inserts_per_s']:.0f} of {run['races'] * 2:.0f} offered, stalled runners {run['stalled']:.0f}")
PY
