#!/bin/sh
# Runs inside the Bluetooth VM with the system D-Bus and bluetoothd up (Tests/vm/hostroot.py
# the case beside bluetoothd of Tests/vm/test_vm.py): the daemon beside other programs using Bluetooth,
# one case after another against the virtual strap at $PEER_ADDRESS. Each case's figures go to
# $OUT/cases.jsonl for Tests/vm/checks/coexist.py. Usage: coexist.sh WEARBRIDGE CASES
# CASES: space-separated, from: bonded desktop_discovery other_connects_first held kernel_held sensors
#        pairings kernel_under_discovery footprint
set -u
B=$1
CASES=$2
J="$OUT/cases.jsonl"
: > "$J"
up() { cut -d' ' -f1 /proc/uptime; }
sent() { n=$(grep -c '"device": "strap"' "$OUT/sent.jsonl" 2>/dev/null); echo "${n:-0}"; }
since() { awk -v a="$1" -v b="$(up)" 'BEGIN { printf "%.2f", b - a }'; }

# start NAME STACK ADDRESS: a daemon with its own data, a session started.
start() {
    NAME=$1
    D=/tmp/wb-$NAME
    rm -rf "$D"
    mkdir -p "$D/data"
    cat > "$D/w.toml" <<CONF
[gpsd]
host = "127.0.0.1"
port = 2947
[storage]
directory = "$D/data"
[control]
socket = "$D/control.sock"
[cues]
enabled = false
[bluetooth]
stack = "$2"
[strap]
address = "$3"
address_type = "$PEER_ADDRESS_TYPE"
adapter = "$HCI_DEVICE"
silence_after = 5
${EXTRA_CONF:-}
CONF
    C="--config $D/w.toml"
    STARTED=$(up)
    SENT0=$(sent)
    "$B" run $C > "$OUT/daemon-$NAME.log" 2>&1 &
    PID=$!
    i=0
    until [ -S "$D/control.sock" ]; do
        i=$((i + 1))
        [ $i -gt 2400 ] && { echo "$NAME: no control socket within 120 s"; cat "$OUT/daemon-$NAME.log"; exit 2; }
        sleep 0.05
    done
    "$B" ctl start $C > /dev/null || exit 3
}

# field NAME: the strap's status field (beats, link, held_by); None when it has none. jq, not
# python3: the guest polls several times a second, and every program it starts runs emulated.
field() {
    "$B" ctl status --json $C | jq -r ".status.heart_rate.$1 // \"None\""
}

# fields: beats and link at once (one status read).
fields() {
    eval "$("$B" ctl status --json $C |
        jq -r '"beats=\(.status.heart_rate.beats // 0) link=\(.status.heart_rate.link // "none")"')"
}

# wait_for CONDITION SECONDS: polls `field` until the shell condition holds; 0 if it did. SECONDS is
# what the condition takes on an idle machine; the guard is four times it (GUARD), since software
# emulation under load stretches everything and a wait that ends when its event comes costs
# nothing more when it comes soon.
wait_for() {
    deadline=$(awk -v a="$(up)" -v b="$2" -v g="${GUARD:-4}" 'BEGIN { print a + b * g }')
    while :; do
        fields
        eval "$1" && return 0
        awk -v a="$(up)" -v b="$deadline" 'BEGIN { exit !(a >= b) }' && return 1
        sleep 0.2
    done
}

# stop EXTRA_JSON: ends the session and the daemon, appends the case's line.
stop() {
    beats=$(field beats)
    link=$(field link)
    held=$(field held_by)
    cpu=$(awk '{ print $14 + $15 }' "/proc/$PID/stat")
    rss=$(awk '/VmHWM/ { print $2 }' "/proc/$PID/status")
    "$B" ctl end $C > /dev/null
    kill -TERM $PID
    wait $PID
    rc=$?
    python3 - "$NAME" "$beats" "$link" "$held" "$(($(sent) - SENT0))" "$(since "$STARTED")" "$cpu" "$rss" "$rc" "$1" \
        >> "$J" <<'PY'
import json, sys
name, beats, link, held, sent, seconds, cpu, rss, rc, extra = sys.argv[1:]
line = {"case": name, "beats": int(beats) if beats.isdigit() else 0, "link": link,
        "held_by": None if held == "None" else held, "sent": int(sent), "seconds": float(seconds),
        "cpu_ticks": int(cpu), "peak_rss_kb": int(rss), "daemon_rc": int(rc)}
line.update(json.loads(extra or "{}"))
print(json.dumps(line))
PY
    echo "case $NAME: $(tail -1 "$J")"
}

for CASE in $CASES; do
    case $CASE in
    desktop_discovery)
        # A settings panel pairing headphones: discovery on throughout, "the first strap seen".
        bluetoothctl --timeout 120 scan on > "$OUT/desktop-scan.log" 2>&1 &
        desktop=$!
        sleep 2
        start desktop_discovery auto first-seen
        wait_for '[ "$beats" -ge 1 ] 2>/dev/null' 30
        first=$(since "$STARTED")
        wait_for '[ "$beats" -ge 15 ] 2>/dev/null' 30
        discovering=$(bluetoothctl show | grep -c "Discovering: yes")
        stop "{\"first_beat_s\": $first, \"desktop_still_discovering\": $discovering}"
        kill $desktop 2>/dev/null
        wait $desktop 2>/dev/null
        ;;
    other_connects_first)
        # Another program connects the strap first (bluetoothctl), then disconnects it under us.
        bluetoothctl connect "$PEER_ADDRESS" > "$OUT/other-connect.log" 2>&1
        start other_connects_first auto "$PEER_ADDRESS"
        wait_for '[ "$beats" -ge 1 ] 2>/dev/null' 30
        first=$(since "$STARTED")
        wait_for '[ "$beats" -ge 8 ] 2>/dev/null' 30
        before=$(field beats)
        cut=$(up)
        bluetoothctl disconnect "$PEER_ADDRESS" > "$OUT/other-disconnect.log" 2>&1
        wait_for "[ \"\$beats\" -gt $before ] 2>/dev/null" 30
        recovered=$(since "$cut")
        wait_for "[ \"\$beats\" -ge $((before + 8)) ] 2>/dev/null" 30
        stop "{\"first_beat_s\": $first, \"recovery_s\": $recovered}"
        ;;
    held)
        # Another program holds the notifications (a second wearbridge through bluetoothd); when it
        # lets go, the daemon takes the strap.
        "$B" strap "$PEER_ADDRESS" --type "$PEER_ADDRESS_TYPE" --stack bluez --seconds 300 > "$OUT/other-strap.log" 2>&1 &
        other=$!
        i=0
        until grep -q "^beat" "$OUT/other-strap.log"; do
            i=$((i + 1))
            [ $i -gt 1200 ] && { echo "held: the other program never streamed"; cat "$OUT/other-strap.log"; exit 4; }
            sleep 0.1
        done
        start held auto "$PEER_ADDRESS"
        wait_for '[ "$link" = held ]' 30
        shown=$(field held_by)
        released=$(up)
        kill -TERM $other
        wait $other 2>/dev/null
        wait_for '[ "$beats" -ge 1 ] 2>/dev/null' 30
        taken=$(since "$released")
        wait_for '[ "$beats" -ge 5 ] 2>/dev/null' 30
        stop "$(python3 -c 'import json,sys; print(json.dumps({"shown_held_by": sys.argv[1], "taken_after_release_s": float(sys.argv[2])}))' "$shown" "$taken")"
        ;;
    sensors)
        # The footpod and the treadmill through bluetoothd beside the strap; the footpod drops its
        # link once (the world's schedule) and comes back.
        EXTRA_CONF="[footpod]
address = \"F2:F2:F2:F2:F2:F2\"
address_type = \"random\"
[treadmill]
address = \"F3:F3:F3:F3:F3:F3\"
address_type = \"random\"" start sensors auto "$PEER_ADDRESS"
        wait_for '[ "$beats" -ge 45 ] 2>/dev/null' 90
        "$B" ctl status --json $C > "$OUT/status-sensors.json"
        counts=$(python3 - "$OUT/status-sensors.json" "$OUT/daemon-sensors.log" <<'PY'
import json, sys
status = json.load(open(sys.argv[1]))["status"]
sensors = {s["kind"]: s for s in status.get("speed_sensors") or []}
log = open(sys.argv[2]).read()
print(json.dumps({
    "footpod_samples": sensors.get("footpod", {}).get("samples", 0),
    "footpod_link": sensors.get("footpod", {}).get("link"),
    "treadmill_samples": sensors.get("treadmill", {}).get("samples", 0),
    "treadmill_link": sensors.get("treadmill", {}).get("link"),
    "footpod_connections": log.count("footpod connected"),
    "treadmill_connections": log.count("treadmill connected"),
    "through_bluez": log.count("through=bluez"),
}))
PY
)
        stop "$counts"
        ;;
    kernel_held)
        # The kernel's path while bluetoothd holds the link for another program: EBUSY, said so.
        bluetoothctl connect "$PEER_ADDRESS" > "$OUT/other-connect-kernel.log" 2>&1
        start kernel_held kernel "$PEER_ADDRESS"
        wait_for '[ "$link" = held ]' 30
        shown=$(field held_by)
        bluetoothctl disconnect "$PEER_ADDRESS" > /dev/null 2>&1
        stop "$(python3 -c 'import json,sys; print(json.dumps({"shown_held_by": sys.argv[1]}))' "$shown")"
        ;;
    bonded)
        # A strap that sends nothing over an unencrypted link: bonded on the first connection through
        # bluetoothd's agent, streaming across the strap's own drop, then a restart of the daemon.
        start bonded auto "$PEER_ADDRESS"
        wait_for '[ "$beats" -ge 1 ] 2>/dev/null' 60
        first=$(since "$STARTED")
        wait_for '[ "$beats" -ge 35 ] 2>/dev/null' 90
        paired=$(bluetoothctl info "$PEER_ADDRESS" | grep -c "Paired: yes")
        stop "{\"first_beat_s\": $first, \"paired\": $paired}"
        start bonded_restart auto "$PEER_ADDRESS"
        wait_for '[ "$beats" -ge 1 ] 2>/dev/null' 60
        first=$(since "$STARTED")
        wait_for '[ "$beats" -ge 5 ] 2>/dev/null' 30
        stop "{\"first_beat_s\": $first}"
        ;;
    pairings)
        # After every case: how many times the strap was paired (once, in `bonded`, if it ran).
        echo "{\"case\": \"pairings\", \"pairings_seen_by_strap\": $(grep -c 'strap: paired' "$OUT/world.log"), \"beats\": 0, \"sent\": 0, \"link\": \"\", \"seconds\": 0, \"cpu_ticks\": 0, \"peak_rss_kb\": 0, \"daemon_rc\": 0}" >> "$J"
        ;;
    kernel_under_discovery)
        # The kernel's raw scan beside a desktop's discovery: how it was before bluetoothd's path.
        bluetoothctl --timeout 30 scan on > "$OUT/desktop-scan-kernel.log" 2>&1 &
        desktop=$!
        sleep 2
        start kernel_under_discovery kernel first-seen
        wait_for '[ "$beats" -ge 10 ] 2>/dev/null' 25
        stop "{}"
        kill $desktop 2>/dev/null
        wait $desktop 2>/dev/null
        ;;
    footprint)
        # The same 40 s of streaming through each path (no other program), for CPU and memory.
        for stack in bluez kernel; do
            start "footprint_$stack" "$stack" "$PEER_ADDRESS"
            wait_for '[ "$beats" -ge 1 ] 2>/dev/null' 30
            first=$(since "$STARTED")
            sleep 40
            stop "{\"stack\": \"$stack\", \"first_beat_s\": $first}"
        done
        ;;
    *) echo "unknown case $CASE"; exit 9 ;;
    esac
done
