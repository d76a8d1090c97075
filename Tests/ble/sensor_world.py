#!/usr/bin/env python3
"""A virtual footpod and a virtual treadmill (and ../shared/ble-vm's strap beside them) for the
guest's kernel Bluetooth stack, built with Bumble as ../shared/ble-vm's strap is, on one LocalLink
behind one /dev/vhci controller (hci0 to the kernel).

* Footpod F2:F2:F2:F2:F2:F2 (random static): Running Speed and Cadence 0x1814, RSC Measurement
  0x2A53 notified once a second with speed, cadence, stride length and total distance (the
  footpod's own count, which goes on while it is out of range, as a real one does), RSC Feature
  0x2A54, Sensor Location 0x2A5D, SC Control Point 0x2A55 (never written by wearbridge), Battery.
  Its stride drifts: it reports `--footpod-scale` times the true distance, the scale moving by
  `--footpod-drift` over the run. Faults: drops the link `--footpod-drops` times, each after
  `--footpod-drop-after` s connected, staying away `--footpod-away-for` s (never once the route
  has begun); every `--footpod-malformed-every`th notification is cut short.
* Treadmill F3:F3:F3:F3:F3:F3: Fitness Machine 0x1826, Treadmill Data 0x2ACD notified once a
  second (speed, total distance in whole metres, inclination and ramp angle, elapsed time) while
  its belt runs a workout of steps, over and over (`--workout 0:2.5,...`: from second, m/s), Fitness
  Machine Status 0x2ADA ("started" when the workout starts), Feature 0x2ACC, Control Point
  0x2AD9 (never written).
* The strap (F1:F1:F1:F1:F1:F1) as ../shared/ble-vm/hr_peripheral_bumble.py makes it, 1 Hz.

Every notification sent goes to `--sent-log` as JSON with what it says and the truth behind it.
Prints READY once all advertise.
"""
import argparse
import asyncio
import importlib.util
import json
import math
import os
import struct
import sys
import time

from bumble import gatt
from bumble.controller import Controller
from bumble.core import UUID, AdvertisingData
from bumble.device import Device
from bumble.hci import (Address, HCI_LE_Connection_Complete_Event,
                        HCI_LE_Enhanced_Connection_Complete_Event)
from bumble.host import Host
from bumble.link import LocalLink
from bumble.transport import open_transport
from bumble.transport.common import AsyncPipeSink


def load_strap_module(shared):
    """../shared/ble-vm's strap: its payload builder, and its patch of Bumble's LocalLink."""
    spec = importlib.util.spec_from_file_location(
        "hr_peripheral_bumble", os.path.join(shared, "ble-vm", "hr_peripheral_bumble.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class KernelFacingController(Controller):
    """The guest kernel's controller. Bumble's claims LL privacy, so Linux enables the LE Enhanced
    Connection Complete event and waits for it after each LE Create Connection, but Bumble sends the
    legacy event: the kernel's command queue then stalls for its 20 s connection timeout after every
    connection, and a third sensor can wait past the test's window behind the others' reconnections
    (seen in CI). A controller must send the enhanced event when the host has enabled it (Core 5.x,
    Vol 4, Part E, 7.7.65.10), so this one does."""

    ENHANCED_CONNECTION_COMPLETE_BIT = 1 << 9  # LE event mask bit of subevent 0x0A

    def send_hci_packet(self, packet):
        if (isinstance(packet, HCI_LE_Connection_Complete_Event)
                and self.le_event_mask & self.ENHANCED_CONNECTION_COMPLETE_BIT):
            packet = HCI_LE_Enhanced_Connection_Complete_Event(
                status=packet.status, connection_handle=packet.connection_handle, role=packet.role,
                peer_address_type=packet.peer_address_type, peer_address=packet.peer_address,
                local_resolvable_private_address=Address.ANY_RANDOM,
                peer_resolvable_private_address=Address.ANY_RANDOM,
                connection_interval=packet.connection_interval, peripheral_latency=packet.peripheral_latency,
                supervision_timeout=packet.supervision_timeout,
                central_clock_accuracy=packet.central_clock_accuracy)
        super().send_hci_packet(packet)


T0 = time.monotonic()


def log(message):
    print(f"[sensors +{time.monotonic() - T0:7.3f}s] {message}", flush=True)


def u16(value):
    return UUID.from_16_bits(value)


def rsc_payload(speed, cadence, stride_m, total_m, running=True):
    """RSC Measurement as the Bluetooth SIG lays it out: flags (stride, total, running), speed in
    1/256 m/s, cadence, stride in cm, total distance in dm (uint32)."""
    flags = 0x01 | 0x02 | (0x04 if running else 0)
    return struct.pack("<BHBHI", flags, round(speed * 256), cadence, round(stride_m * 100), int(total_m * 10))


def treadmill_payload(speed, total_m, grade, elapsed_s):
    """Treadmill Data: flags (bit 0 clear: speed present; bit 2 total distance; bit 3 inclination
    and ramp angle; bit 10 elapsed time), speed in 0.01 km/h, total distance uint24 in metres,
    inclination and ramp angle sint16 in 0.1, elapsed time uint16 s."""
    flags = 0x0004 | 0x0008 | 0x0400
    distance = int(total_m)
    return (struct.pack("<HH", flags, round(speed * 3.6 * 100)) + distance.to_bytes(3, "little")
            + struct.pack("<hhH", round(grade * 10), round(math.degrees(math.atan(grade / 100)) * 10), elapsed_s))


class Peripheral:
    """One virtual device: its own controller and Bumble host on the shared link, advertising
    connectable again after every disconnection unless it is out of range."""

    def __init__(self, link, address, name, services, service_uuid, appearance):
        controller = Controller(f"C-{name}", link=link, public_address=address)
        self.device = Device(name=name, address=Address(address), host=Host(controller, AsyncPipeSink(controller)))
        for service in services:
            self.device.add_service(service)
        self.device.advertising_data = bytes(AdvertisingData([
            (AdvertisingData.FLAGS, bytes([0x06])),
            (AdvertisingData.COMPLETE_LOCAL_NAME, name.encode()),
            (AdvertisingData.INCOMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS, struct.pack("<H", service_uuid)),
            (AdvertisingData.APPEARANCE, struct.pack("<H", appearance)),
        ]))
        self.name = name
        self.away_until = 0.0
        self.connected_at = None
        self.device.on("connection", self.on_connection)

    async def advertise(self):
        await self.device.start_advertising(auto_restart=False)
        log(f"{self.name} advertising")

    def on_connection(self, connection):
        self.connected_at = time.monotonic()
        log(f"{self.name}: connection from {connection.peer_address}")

        def on_disconnection(reason):
            self.connected_at = None
            delay = max(0.0, self.away_until - time.monotonic())
            log(f"{self.name}: disconnected reason={reason}" + (f", out of range {delay:.1f} s" if delay else ""))
            asyncio.get_running_loop().call_later(delay, lambda: asyncio.ensure_future(self.advertise()))
        connection.on("disconnection", on_disconnection)

    async def start(self):
        await self.device.power_on()
        await self.advertise()

    async def drop(self, away_for):
        self.away_until = time.monotonic() + away_for
        for connection in list(self.device.connections.values()):
            await connection.disconnect()


def workout_steps(text):
    steps = []
    for part in text.split(","):
        start, speed = part.split(":")
        steps.append((float(start), float(speed)))
    return sorted(steps)


async def main(args):
    strap_module = load_strap_module(args.shared)
    link = LocalLink()
    vhci = await open_transport("vhci")
    KernelFacingController("C-vhci", host_source=vhci.source, host_sink=vhci.sink, link=link, public_address="F0:F0:F0:F0:F0:F0")
    sent = open(args.sent_log, "a") if args.sent_log else None

    def record(entry):
        if sent:
            sent.write(json.dumps(entry) + "\n")
            sent.flush()

    # The footpod.
    rsc = gatt.Characteristic(u16(0x2A53), gatt.Characteristic.Properties.NOTIFY, 0, b"")
    rsc_feature = gatt.Characteristic(u16(0x2A54), gatt.Characteristic.Properties.READ, gatt.Characteristic.READABLE,
                                      struct.pack("<H", 0x0007))
    location = gatt.Characteristic(u16(0x2A5D), gatt.Characteristic.Properties.READ, gatt.Characteristic.READABLE,
                                   bytes([4]))
    control = gatt.Characteristic(u16(0x2A55), gatt.Characteristic.Properties.WRITE | gatt.Characteristic.Properties.INDICATE,
                                  gatt.Characteristic.WRITEABLE, b"")
    battery = gatt.Service(gatt.GATT_BATTERY_SERVICE, [gatt.Characteristic(
        gatt.GATT_BATTERY_LEVEL_CHARACTERISTIC, gatt.Characteristic.Properties.READ, gatt.Characteristic.READABLE,
        bytes([71]))])
    footpod = Peripheral(link, "F2:F2:F2:F2:F2:F2", "Virtual Footpod",
                         [gatt.Service(u16(0x1814), [rsc, rsc_feature, location, control]), battery], 0x1814, 0x0443)

    # The treadmill.
    data = gatt.Characteristic(u16(0x2ACD), gatt.Characteristic.Properties.NOTIFY, 0, b"")
    status = gatt.Characteristic(u16(0x2ADA), gatt.Characteristic.Properties.NOTIFY, 0, b"")
    feature = gatt.Characteristic(u16(0x2ACC), gatt.Characteristic.Properties.READ, gatt.Characteristic.READABLE,
                                  struct.pack("<II", 0x0000_2C0C, 0x0000_0003))
    machine_control = gatt.Characteristic(
        u16(0x2AD9), gatt.Characteristic.Properties.WRITE | gatt.Characteristic.Properties.INDICATE,
        gatt.Characteristic.WRITEABLE, b"")
    treadmill = Peripheral(link, "F3:F3:F3:F3:F3:F3", "Virtual Treadmill",
                           [gatt.Service(u16(0x1826), [feature, data, status, machine_control])], 0x1826, 0x0000)

    peripherals = [footpod, treadmill]
    if args.strap:
        hr = gatt.Characteristic(gatt.GATT_HEART_RATE_MEASUREMENT_CHARACTERISTIC,
                                 gatt.Characteristic.Properties.NOTIFY, 0, b"")
        strap = Peripheral(link, "F1:F1:F1:F1:F1:F1", "Bumble HRM",
                           [gatt.Service(gatt.GATT_HEART_RATE_SERVICE, [hr])], 0x180D, 0x0341)
        peripherals.append(strap)
    for peripheral in peripherals:
        await peripheral.start()
    print("READY", flush=True)

    steps = workout_steps(args.workout)
    # A route run outdoors (Tests/ble/tunnel_route.py): once the guest says when gpsfake began to
    # play it (its CLOCK_MONOTONIC in --route-go), the footpod counts that route's metres.
    route = json.load(open(args.route)) if args.route else None
    route_t0 = None
    route_base = 0.0

    def route_metres(elapsed):
        truth = route["truth_m"]
        if elapsed <= 0:
            return 0.0
        index = int(elapsed)
        if index + 1 >= len(truth):
            return truth[-1]
        return truth[index] + (truth[index + 1] - truth[index]) * (elapsed - index)
    footpod_true = 0.0      # metres run (truth)
    footpod_total = 0.0     # what the footpod counts (its stride off by the scale)
    treadmill_total = 0.0   # the belt's metres
    treadmill_started = None
    footpod_drops = 0
    n = 0
    last = time.monotonic()
    while True:
        await asyncio.sleep(1.0)
        now = time.monotonic()
        dt, last = now - last, now
        t = now - T0
        n += 1
        # The runner: 3.0 m/s with a slow swing; the footpod's stride drifts.
        speed = 3.0 + 0.4 * math.sin(t / 15)
        scale = args.footpod_scale + args.footpod_drift * min(1.0, t / args.duration)
        if route and route_t0 is None and os.path.exists(args.route_go):
            route_t0 = float(open(args.route_go).read().split()[0])
            route_base = footpod_total
            log(f"route mode: gpsfake began at {route_t0:.2f} (monotonic), now {now:.2f}")
        if route_t0 is not None:
            # The route's moving part begins after its still pre-roll, plus gpsfake's start-up.
            elapsed = now - route_t0 - route["preroll"] - args.route_latency
            scale = args.route_scale
            run_now = route_metres(elapsed)
            speed = (route_metres(elapsed + 0.5) - route_metres(elapsed - 0.5))
            footpod_true = run_now
            footpod_total = route_base + run_now * scale
        else:
            footpod_true += speed * dt
            footpod_total += speed * dt * scale
        # No drops on the route: the drops are for the phases before it (how many land in each
        # depends on how long reconnections take through the emulated controller), and one left
        # over for the route would cut the calibration stretch before the tunnel, which is what
        # the route measures.
        if (args.footpod_drop_after and footpod_drops < args.footpod_drops and footpod.connected_at
                and route_t0 is None and now - footpod.connected_at > args.footpod_drop_after):
            footpod_drops += 1
            log(f"footpod: dropping the link ({footpod_drops} of {args.footpod_drops}), away {args.footpod_away_for} s")
            await footpod.drop(args.footpod_away_for)
            dropped_now = True
        else:
            dropped_now = False
        # Nothing to a link just dropped (it may be listed until its disconnection is processed).
        if footpod.device.connections and not dropped_now:
            cadence = 172
            payload = rsc_payload(speed * scale, cadence, speed * scale * 60 / cadence, footpod_total)
            kind = "valid"
            if args.footpod_malformed_every and n % args.footpod_malformed_every == 0:
                payload, kind = payload[:5], "malformed"
            await footpod.device.notify_subscribers(rsc, payload)
            record({"device": "footpod", "n": n, "t": round(t, 3), "hex": payload.hex(), "kind": kind,
                    "speed": round(speed * scale, 4), "total_m": int(footpod_total * 10) / 10,
                    "true_m": round(footpod_true, 3), "scale": round(scale, 5), "route": route_t0 is not None})
        # The treadmill's belt runs from its first subscriber on: 3 s after the connection, once
        # it has had time to subscribe (a status sent before would reach nobody).
        if (treadmill.device.connections and treadmill_started is None and treadmill.connected_at
                and now - treadmill.connected_at >= 3):
            treadmill_started = now
            await treadmill.device.notify_subscribers(status, bytes([0x04]))
            record({"device": "treadmill", "n": n, "t": round(t, 3), "hex": "04", "kind": "status"})
            continue
        if treadmill_started is not None:
            elapsed = now - treadmill_started
            # The workout repeats: every session that follows the belt sees its steps.
            within = elapsed % args.workout_cycle
            belt = [s for start, s in steps if start <= within][-1] if within >= steps[0][0] else 0.0
            treadmill_total += belt * dt
            if treadmill.device.connections:
                payload = treadmill_payload(belt, treadmill_total, args.grade, int(elapsed))
                await treadmill.device.notify_subscribers(data, payload)
                record({"device": "treadmill", "n": n, "t": round(t, 3), "hex": payload.hex(), "kind": "valid",
                        "speed": belt, "total_m": int(treadmill_total), "true_m": round(treadmill_total, 3)})
        if args.strap and strap.device.connections:
            await strap.device.notify_subscribers(hr, strap_module.hrm_payload(140, [], True))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared"))
    ap.add_argument("--sent-log", default="")
    ap.add_argument("--duration", type=float, default=120, help="the run's planned length (the drift's span)")
    ap.add_argument("--footpod-scale", type=float, default=1.07, help="footpod distance / true distance")
    ap.add_argument("--footpod-drift", type=float, default=0.0, help="the scale moves this much over the run")
    ap.add_argument("--footpod-drop-after", type=float, default=0)
    ap.add_argument("--footpod-away-for", type=float, default=0)
    ap.add_argument("--footpod-drops", type=int, default=1, help="how many times the link is dropped")
    ap.add_argument("--footpod-malformed-every", type=int, default=0)
    ap.add_argument("--workout", default="0:2.5,20:3.3,40:4.0,60:2.0", help="from second:m/s, ...")
    ap.add_argument("--workout-cycle", type=float, default=80, help="the workout starts again after this (s)")
    ap.add_argument("--grade", type=float, default=1.0, help="the treadmill's incline (%%)")
    ap.add_argument("--strap", action="store_true", help="the strap too (1 Hz, 140 bpm)")
    ap.add_argument("--route", default="", help="a route's truth (tunnel_route.py's JSON)")
    ap.add_argument("--route-go", default="", help="the file whose appearance starts the route")
    ap.add_argument("--route-scale", type=float, default=1.03, help="footpod distance / true on the route")
    ap.add_argument("--route-latency", type=float, default=0.3, help="gpsfake's start to its first epoch (s)")
    a = ap.parse_args()
    try:
        asyncio.run(main(a))
    except KeyboardInterrupt:
        sys.exit(0)
