#!/usr/bin/env bash
# The relay's scale figures (docs/benchmarks.md, "The relay"), release build, as ratios within one
# run: `wearbridge-bench relay-scale` with RACES races against a relay at the first schema only
# (`relay migrate --through 1`: the baseline) and against one with every migration (the
# protections: read functions, no NOTIFY, the plausibility and rate rules, the stalled-session
# guard), plus one race on the latter. Each relay is fresh (scripts/rigs/relay-local.sh). The load
# generator logs in with one certificate (CN loadgen) that pg_ident maps to each simulated runner;
# everything else is as a phone meets it: TLS, the relay's rules, polling twice a second.
#   scripts/bench/relay.sh [RACES=500] [SECONDS=60]      (MODES="after" runs only that one)
set -euo pipefail
cd "$(dirname "$0")/../.."
RACES=${1:-500}
SECONDS_=${2:-60}
swift build -c release --product wearbridge-phone >/dev/null
swift build -c release --product wearbridge-bench >/dev/null
BIN=$(swift build -c release --show-bin-path)
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
OUT=$(mktemp -d /var/tmp/wearbridge-relay-bench-out-XXXXXX)
DIR=
trap '[ -z "$DIR" ] || scripts/rigs/relay-local.sh "$DIR" --stop immediate; rm -rf "$DIR" "$OUT"' EXIT
as_server() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
relay() { # through: a fresh relay at that schema version (all when empty)
    DIR=$(mktemp -d /var/tmp/wearbridge-relay-bench-XXXXXX)
    chmod 755 "$DIR"
    WEARBRIDGE_PHONE=$BIN/wearbridge-phone RELAY_MIGRATE_THROUGH=$1 scripts/rigs/relay-local.sh "$DIR" --port "$PORT" loadgen >/dev/null
    {
        for prefix in a b c; do
            for i in $(seq 1 $((RACES * 2))); do printf 'bench loadgen %s%05d\n' "$prefix" "$i"; done
        done
    } >> "$DIR/data/pg_ident.conf"
    sed -i '1i hostssl all +relay_runner 127.0.0.1/32 cert map=bench' "$DIR/data/pg_hba.conf"
    as_server "$PGBIN/pg_ctl" -D "$DIR/data" reload >/dev/null
    sleep 1
}
unrelay() { scripts/rigs/relay-local.sh "$DIR" --stop immediate; rm -rf "$DIR"; DIR=; }
bench() { # label prefix races seconds
    "$BIN/wearbridge-bench" relay-scale --admin-url "postgresql://relay_admin@/postgres?host=$DIR/run&port=$PORT" \
        --port "$PORT" --ca "$DIR/tls/ca.crt" --cert "$DIR/tls/loadgen.crt" --key "$DIR/tls/loadgen.key" \
        --data "$DIR/data" --label "$1" --prefix "$2" --races "$3" --seconds "$4"
}
echo "machine: $(nproc) cores; PostgreSQL $(as_server "$PGBIN/postgres" --version | awk '{print $3}')"
MODES=${MODES:-before after one}
for mode in $MODES; do
    case $mode in
        before) relay 1; bench "schema 1 (before)" a "$RACES" "$SECONDS_" | tee "$OUT/before.txt"; unrelay ;;
        after) relay ""; bench "every migration (after)" b "$RACES" "$SECONDS_" | tee "$OUT/after.txt"; unrelay ;;
        one) relay ""; bench "every migration, one race" c 1 "$SECONDS_" | tee "$OUT/one.txt"; unrelay ;;
    esac
done
[ "$MODES" = "before after one" ] || exit 0
python3 - "$OUT" <<'PY'
import sys
def read(name):
    line = next(l for l in open(f"{sys.argv[1]}/{name}.txt") if l.startswith("RESULT"))
    return {k: float(v) for k, v in (p.split("=") for p in line.split()[1:])}
before, after, one = read("before"), read("after"), read("one")
print("after / before, same run (RACES races; snapshots polled twice a second in both):")
for key in ("inserts_per_s", "insert_p50_ms", "insert_p99_ms", "leg_p50_ms", "leg_p99_ms", "relay_cpu_cores"):
    print(f"  {key:16} before {before[key]:9.2f}  after {after[key]:9.2f}  x{after[key] / before[key]:.2f}")
print(f"  stalled runners  before {before['stalled']:.0f}  after {after['stalled']:.0f}; refused (the 0.5 s rate "
      f"limit: late posts bunched) before {before['refused']:.0f}  after {after['refused']:.0f}")
print(f"one race, every migration: insert p99 {one['insert_p99_ms']:.2f} ms, leg p99 {one['leg_p99_ms']:.2f} ms")
PY
