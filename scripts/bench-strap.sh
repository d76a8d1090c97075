#!/usr/bin/env bash
# The Bluetooth figure: the daemon's CPU and RSS with a strap notifying at 1 Hz against GPS only,
# measured in the ble-vm guest (the only place with a Bluetooth stack here) on the deployment
# build. Both phases log GPS from a real gpsd fed by gpsfake at 1 Hz. About four minutes.
# Usage: scripts/bench-strap.sh [SECONDS per phase, default 120]
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=$(cd ../shared && pwd -P)
SECONDS_PER_PHASE=${1:-120}
export WORK=${WORK:-/var/tmp/ble-vm}
BUILT=$(scripts/build-release.sh | tail -1)
mkdir -p "$WORK/bin"
BIN="$WORK/bin/wearbridge-release"
cp "$BUILT" "$BIN.tmp" && mv "$BIN.tmp" "$BIN"
# The guest's /tmp is its own: it runs copies from $WORK (see scripts/ble-e2e.sh).
cp scripts/bench-strap-guest.sh "$WORK/bin/bench-strap-guest.sh"
TESTS=cmd \
GUEST_CMD="sh $WORK/bin/bench-strap-guest.sh $BIN $SHARED/benchmarks/gps/park_loop_run.nmea $SECONDS_PER_PHASE" \
GUEST_CMD_TIMEOUT=$((2 * SECONDS_PER_PHASE + 120)) \
QEMU_TIMEOUT=$((2 * SECONDS_PER_PHASE + 300)) \
PERIPH_ARGS="--battery 80" \
  "$SHARED/ble-vm/run-ble-e2e.sh" > "$WORK/bench-strap.log" 2>&1 || { tail -30 "$WORK/bench-strap.log"; exit 1; }
python3 - "$WORK/out" <<'PY'
import json, sys
out = sys.argv[1]
rows = {}
for line in open(f"{out}/bench.txt"):
    if "recorded no fixes" in line:
        sys.exit(f"benchmark invalid: {line.strip()} (see {out}/gpsfake.log)")
    phase, *fields = line.split()
    rows[phase] = {k: float(v) for k, v in (f.split("=") for f in fields)}
def pct(r): return 100 * r["cpu_ticks"] / r["tck"] / r["seconds"]
g, s = rows["gps-only"], rows["gps+strap"]
status = json.load(open(f"{out}/bench-gps+strap-status.json"))["status"]
beats = status.get("heart_rate", {}).get("beats")
print(f"daemon in the VM guest (TCG-emulated x86, so CPU shares are inflated against a real Pi), "
      f"{int(g['seconds'])} s per phase after a 15 s warm-up, gpsd at 1 Hz in both:")
print(f"  GPS only:        CPU {pct(g):.2f}% of one core ({g['cpu_ticks']:.0f} ticks), VmHWM {g['vmhwm_kb']/1024:.1f} MB")
print(f"  GPS + strap 1Hz: CPU {pct(s):.2f}% of one core ({s['cpu_ticks']:.0f} ticks), VmHWM {s['vmhwm_kb']/1024:.1f} MB"
      f" ({beats} beats recorded)")
print(f"  ratio strap/GPS-only: CPU {pct(s)/max(pct(g),1e-9):.2f}x, RSS {s['vmhwm_kb']/g['vmhwm_kb']:.2f}x")
PY
