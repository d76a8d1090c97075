#!/usr/bin/env bash
# The Bluetooth figure: the daemon's CPU and RSS with a strap notifying at 1 Hz against GPS only,
# measured in the Bluetooth VM (Tests/vm/hostroot.py, the only place with a Bluetooth stack here) on
# the deployment build. Both phases log GPS from a real gpsd fed by gpsfake at 1 Hz. About four minutes.
# Usage: scripts/bench/strap.sh [SECONDS per phase, default 90; four phases]
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_PER_PHASE=${1:-90}
WORK=${BLE_VM_WORK:-/var/tmp/ble-vm}
BUILT=$(scripts/build/build-release.sh | tail -1)
python3 Tests/vm/hostroot.py --work "$WORK" --timeout $((4 * SECONDS_PER_PHASE + 200)) --world "--strap --strap-battery 80" \
    --copy "$BUILT" --copy scripts/bench/strap-guest.sh --copy data/gps/park_loop_run.nmea \
    "sh $WORK/bin/bench-strap-guest.sh $WORK/bin/$(basename "$BUILT") $WORK/bin/park_loop_run.nmea $SECONDS_PER_PHASE" \
    > "$WORK/bench-strap.log" 2>&1 || { tail -30 "$WORK/bench-strap.log"; exit 1; }
python3 - "$WORK/out" <<'PY'
import json, sys
out = sys.argv[1]
rows = {"gps-only": [], "gps+strap": []}
for line in open(f"{out}/bench.txt"):
    if "recorded no fixes" in line:
        sys.exit(f"benchmark invalid: {line.strip()} (see {out}/gpsfake.log)")
    phase, *fields = line.split()
    rows[phase].append({k: float(v) for k, v in (f.split("=") for f in fields)})
def pct(r): return 100 * r["cpu_ticks"] / r["tck"] / r["seconds"]
status = json.load(open(f"{out}/bench-gps+strap-status.json"))["status"]
beats = status.get("heart_rate", {}).get("beats")
seconds = int(rows["gps-only"][0]["seconds"])
print(f"daemon in the VM guest (TCG-emulated x86, so CPU shares are inflated against a real Pi), "
      f"{seconds} s per phase after a 15 s warm-up, phases alternating, gpsd at 1 Hz in all:")
mean = {}
for phase, label in (("gps-only", "GPS only:       "), ("gps+strap", "GPS + strap 1Hz:")):
    cpu = [pct(r) for r in rows[phase]]
    hwm = [r["vmhwm_kb"] / 1024 for r in rows[phase]]
    mean[phase] = (sum(cpu) / len(cpu), sum(hwm) / len(hwm))
    print(f"  {label} CPU {', '.join(f'{c:.2f}%' for c in cpu)} of one core (mean {mean[phase][0]:.2f}%), "
          f"VmHWM {', '.join(f'{h:.1f}' for h in hwm)} MB")
print(f"  ({beats} beats recorded in the last strap phase)")
print(f"  ratio strap/GPS-only (means): CPU {mean['gps+strap'][0] / mean['gps-only'][0]:.2f}x, "
      f"RSS {mean['gps+strap'][1] / mean['gps-only'][1]:.2f}x")
PY
