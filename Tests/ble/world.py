#!/usr/bin/env python3
"""A virtual Bluetooth LE world for a guest's kernel stack, built with Bumble: one controller on
/dev/vhci (hci0 to the kernel, as a Pi's own controller), or on a VM's serial line (`--hci`), and the devices on one in-process LocalLink
beside it, each with its own controller and Bumble host. A test double for hardware: it speaks the
real HCI protocol to the real kernel, and the kernel's own Bluetooth stack is what wearbridge meets.

* Strap F1:F1:F1:F1:F1:F1 (`--strap`, random static): Heart Rate 0x180D, Heart Rate Measurement
  0x2A37 notified every `--strap-interval` s with bytes built as the Bluetooth SIG lays them out
  (uint8 or uint16 heart rate, sensor contact, energy, RR intervals in 1/1024 s), Body Sensor
  Location 0x2A38 (chest), and a Battery service with `--strap-battery`. Faults: the link dropped
  `--strap-drops` times, each after `--strap-drop-after` s connected, then out of range
  `--strap-away-for` s; skin contact lost between two instants (`--strap-contact-off`); every
  `--strap-malformed-every`th payload cut short.
* Footpod F2:F2:F2:F2:F2:F2 (`--footpod`): Running Speed and Cadence 0x1814, RSC Measurement
  0x2A53 notified once a second with speed, cadence, stride length and total distance (the
  footpod's own count, which goes on while it is out of range, as a real one does), RSC Feature
  0x2A54, Sensor Location 0x2A5D, SC Control Point 0x2A55 (never written by wearbridge), Battery.
  Its stride drifts: it reports `--footpod-scale` times the true distance, the scale moving by
  `--footpod-drift` over the run. Faults: drops the link `--footpod-drops` times, each after
  `--footpod-drop-after` s connected, staying away `--footpod-away-for` s (never once the route
  has begun); every `--footpod-malformed-every`th notification is cut short.
* Treadmill F3:F3:F3:F3:F3:F3 (`--treadmill`): Fitness Machine 0x1826, Treadmill Data 0x2ACD
  notified once a second (speed, total distance in whole metres, inclination and ramp angle,
  elapsed time) while its belt runs a workout of steps, over and over (`--workout 0:2.5,...`: from
  second, m/s), Fitness Machine Status 0x2ADA ("started" when the workout starts), Feature 0x2ACC,
  Control Point 0x2AD9 (never written).

Every notification sent goes to `--sent-log` as JSON with its device, what it says and the truth
behind it, so a test can check that what was recorded is exactly what was sent while connected.
Each device logs its link ("strap: connection from ...", "strap: disconnected ...", "strap: out of
range for 15.0s", "strap: dropping the link ...") as `[world +  12.345s] DEVICE: message`.
Prints READY once every device advertises.

Bumble is pinned (Tests/vm/bumble.py): `LinkWithConnectionAddresses` mends a LocalLink bug of the
pinned version.
"""
import argparse
import asyncio
import json
import math
import os
import struct
import sys
import time

from bumble import gatt
from bumble.controller import Controller
from bumble.core import UUID, AdvertisingData, PhysicalTransport
from bumble.device import Device
from bumble.hci import (Address, HCI_LE_Connection_Complete_Event,
                        HCI_LE_Enhanced_Connection_Complete_Event)
from bumble.host import Host
from bumble.link import LocalLink
from bumble.transport import open_transport
from bumble.transport.common import AsyncPipeSink

STRAP = "F1:F1:F1:F1:F1:F1"
FOOTPOD = "F2:F2:F2:F2:F2:F2"
TREADMILL = "F3:F3:F3:F3:F3:F3"
KERNEL_SIDE = "F0:F0:F0:F0:F0:F0"


class LinkWithConnectionAddresses(LocalLink):
    """Bumble's LocalLink tags LE ACL data with the sending controller's random address even when
    the connection uses its public one (the Linux kernel connects with its public address), so the
    receiver finds no connection for it and drops every ATT PDU. This link tags the data with the
    address the connection itself uses."""

    def send_acl_data(self, sender_controller, destination_address, transport, data):
        if transport == PhysicalTransport.LE:
            connection = sender_controller.le_connections.get(destination_address)
            if connection is not None:
                destination = self.find_le_controller(destination_address)
                source = connection.self_address
                if destination is not None:
                    asyncio.get_running_loop().call_soon(
                        lambda: destination.on_link_acl_data(source, transport, data))
                return None
        return super().send_acl_data(sender_controller, destination_address, transport, data)


class KernelFacingController(Controller):
    """The guest kernel's controller. Bumble's claims LL privacy, so Linux enables the LE Enhanced
    Connection Complete event and waits for it after each LE Create Connection, but Bumble sends the
    legacy event: the kernel's command queue then stalls for its 20 s connection timeout after every
    connection, and a third device can wait past a test's window behind the others' reconnections.
    A controller must send the enhanced event when the host has enabled it (Core 5.x, Vol 4, Part E,
    7.7.65.10), so this one does."""

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


def log(device, message):
    print(f"[world +{time.monotonic() - T0:7.3f}s] {device}: {message}", flush=True)


def u16(value):
    return UUID.from_16_bits(value)


def hrm_payload(bpm, rr_1024=(), contact=True, uint16=False, energy=None):
    """Heart Rate Measurement as the Bluetooth SIG lays it out: flags (uint16, contact detected and
    supported, energy present, RR present), the heart rate, energy in kJ, RR intervals in 1/1024 s."""
    flags = 0x04 | (0x02 if contact else 0) | (0x01 if uint16 else 0)
    flags |= 0x08 if energy is not None else 0
    flags |= 0x10 if rr_1024 else 0
    out = bytes([flags]) + (struct.pack("<H", bpm) if uint16 else bytes([bpm]))
    if energy is not None:
        out += struct.pack("<H", energy)
    for rr in rr_1024:
        out += struct.pack("<H", rr)
    return out


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


def readable(uuid, value):
    return gatt.Characteristic(uuid, gatt.Characteristic.Properties.READ, gatt.Characteristic.READABLE, value)


def notifying(uuid):
    return gatt.Characteristic(uuid, gatt.Characteristic.Properties.NOTIFY, 0, b"")


def control_point(uuid):
    """A control point a client may write and get indications from (never written by wearbridge)."""
    return gatt.Characteristic(uuid, gatt.Characteristic.Properties.WRITE | gatt.Characteristic.Properties.INDICATE,
                               gatt.Characteristic.WRITEABLE, b"")


def battery_service(level):
    return gatt.Service(gatt.GATT_BATTERY_SERVICE, [readable(gatt.GATT_BATTERY_LEVEL_CHARACTERISTIC, bytes([level]))])


class Peripheral:
    """One virtual device: its own controller and Bumble host on the shared link, advertising
    connectable again after every disconnection unless it is out of range."""

    def __init__(self, link, address, label, name, services, service_uuid, appearance):
        controller = Controller(f"C-{label}", link=link, public_address=address)
        self.device = Device(name=name, address=Address(address), host=Host(controller, AsyncPipeSink(controller)))
        for service in services:
            self.device.add_service(service)
        self.device.advertising_data = bytes(AdvertisingData([
            (AdvertisingData.FLAGS, bytes([0x06])),
            (AdvertisingData.COMPLETE_LOCAL_NAME, name.encode()),
            (AdvertisingData.INCOMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS, struct.pack("<H", service_uuid)),
            (AdvertisingData.APPEARANCE, struct.pack("<H", appearance)),
        ]))
        self.label = label
        self.away_until = 0.0
        self.connected_at = None
        self.drops = 0
        self.device.on("connection", self.on_connection)

    async def advertise(self):
        await self.device.start_advertising(auto_restart=False)
        log(self.label, "advertising")

    def on_connection(self, connection):
        self.connected_at = time.monotonic()
        log(self.label, f"connection from {connection.peer_address} handle={connection.handle}")
        connection.on("pairing", lambda *_: log(self.label, "paired"))
        connection.on("pairing_failure", lambda reason: log(self.label, f"pairing failed: {reason}"))

        def on_disconnection(reason):
            self.connected_at = None
            log(self.label, f"disconnected reason={reason}")
            delay = max(0.0, self.away_until - time.monotonic())
            if delay:
                log(self.label, f"out of range for {delay:.1f}s")
            asyncio.get_running_loop().call_later(delay, lambda: asyncio.ensure_future(self.advertise()))
        connection.on("disconnection", on_disconnection)

    async def start(self):
        await self.device.power_on()
        await self.advertise()

    def due_to_drop(self, after, most):
        """Connected `after` seconds and fewer than `most` drops so far."""
        return (after > 0 and self.drops < most and self.connected_at is not None
                and time.monotonic() - self.connected_at > after)

    async def drop(self, away_for):
        self.drops += 1
        self.away_until = time.monotonic() + away_for
        for connection in list(self.device.connections.values()):
            await connection.disconnect()


class SentLog:
    """Every notification sent, one JSON object per line, flushed as it goes."""

    def __init__(self, path):
        self.file = open(path, "a") if path else None

    def record(self, entry):
        if self.file:
            self.file.write(json.dumps(entry) + "\n")
            self.file.flush()


def make_strap(link):
    measurement = notifying(gatt.GATT_HEART_RATE_MEASUREMENT_CHARACTERISTIC)
    location = readable(gatt.GATT_BODY_SENSOR_LOCATION_CHARACTERISTIC, bytes([1]))
    services = [gatt.Service(gatt.GATT_HEART_RATE_SERVICE, [measurement, location])]
    if ARGS.strap_battery is not None:
        services.append(battery_service(ARGS.strap_battery))
    strap = Peripheral(link, STRAP, "strap", "Virtual HRM", services, 0x180D, 0x0341)
    if ARGS.strap_require_bond:
        # As some Garmin and Wahoo straps: notifications only over an encrypted (bonded) link.
        for attribute in strap.device.gatt_server.attributes:
            if attribute.type == gatt.GATT_CLIENT_CHARACTERISTIC_CONFIGURATION_DESCRIPTOR:
                attribute.permissions |= gatt.Attribute.WRITE_REQUIRES_ENCRYPTION
    return strap, measurement


async def run_strap(strap, measurement, sent):
    """One Heart Rate Measurement every interval to whoever subscribed, with the strap's faults."""
    n = 0
    while True:
        await asyncio.sleep(ARGS.strap_interval)
        n += 1
        t = time.monotonic() - T0
        if strap.due_to_drop(ARGS.strap_drop_after, ARGS.strap_drops):
            log("strap", f"dropping the link (drop {strap.drops + 1} of {ARGS.strap_drops})")
            await strap.drop(ARGS.strap_away_for)
            continue
        if not strap.device.connections:
            continue
        bpm = int(round(ARGS.strap_bpm + ARGS.strap_swing * math.sin(n / 20.0)))
        off = ARGS.strap_contact_off
        contact = not (off and off[0] <= t < off[1])
        rr = [int(round(60.0 / bpm * 1024))] if ARGS.strap_rr else []
        energy = (n * 3) % 65536 if ARGS.strap_energy else None
        payload = hrm_payload(bpm, rr, contact, ARGS.strap_uint16, energy)
        kind = "valid"
        if ARGS.strap_malformed_every and n % ARGS.strap_malformed_every == 0:
            payload, kind = bytes([0x01, bpm & 0xFF]), "malformed"
        await strap.device.notify_subscribers(measurement, payload)
        sent.record({"device": "strap", "n": n, "t": round(t, 3), "hex": payload.hex(), "kind": kind, "bpm": bpm,
                     "contact": contact, "rr_1024": rr, "energy_kj": energy})


def make_footpod(link):
    rsc = notifying(u16(0x2A53))
    feature = readable(u16(0x2A54), struct.pack("<H", 0x0007))
    location = readable(u16(0x2A5D), bytes([4]))
    control = control_point(u16(0x2A55))
    services = [gatt.Service(u16(0x1814), [rsc, feature, location, control]), battery_service(71)]
    return Peripheral(link, FOOTPOD, "footpod", "Virtual Footpod", services, 0x1814, 0x0443), rsc


def make_treadmill(link):
    data = notifying(u16(0x2ACD))
    status = notifying(u16(0x2ADA))
    feature = readable(u16(0x2ACC), struct.pack("<II", 0x0000_2C0C, 0x0000_0003))
    control = control_point(u16(0x2AD9))
    services = [gatt.Service(u16(0x1826), [feature, data, status, control])]
    return Peripheral(link, TREADMILL, "treadmill", "Virtual Treadmill", services, 0x1826, 0x0000), data, status


def workout_steps(text):
    steps = []
    for part in text.split(","):
        start, speed = part.split(":")
        steps.append((float(start), float(speed)))
    return sorted(steps)


async def run_speed_sensors(footpod, treadmill, sent):
    """The runner's footpod and the treadmill's belt, once a second."""
    steps = workout_steps(ARGS.workout)
    # A route run outdoors (Tests/ble/tunnel_route.py): once the guest says when gpsfake began to
    # play it (its CLOCK_MONOTONIC in --route-go), the footpod counts that route's metres.
    route = json.load(open(ARGS.route)) if ARGS.route else None
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
    n = 0
    last = time.monotonic()
    while True:
        await asyncio.sleep(1.0)
        now = time.monotonic()
        dt, last = now - last, now
        t = now - T0
        n += 1
        if footpod:
            peripheral, rsc = footpod
            # The runner: 3.0 m/s with a slow swing; the footpod's stride drifts.
            speed = 3.0 + 0.4 * math.sin(t / 15)
            scale = ARGS.footpod_scale + ARGS.footpod_drift * min(1.0, t / ARGS.duration)
            if route and route_t0 is None and os.path.exists(ARGS.route_go):
                route_t0 = float(open(ARGS.route_go).read().split()[0])
                route_base = footpod_total
                log("footpod", f"route mode: gpsfake began at {route_t0:.2f} (monotonic), now {now:.2f}")
            if route_t0 is not None:
                # The route's moving part begins after its still pre-roll, plus gpsfake's start-up.
                elapsed = now - route_t0 - route["preroll"] - ARGS.route_latency
                scale = ARGS.route_scale
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
            dropped_now = route_t0 is None and peripheral.due_to_drop(ARGS.footpod_drop_after, ARGS.footpod_drops)
            if dropped_now:
                log("footpod", f"dropping the link ({peripheral.drops + 1} of {ARGS.footpod_drops}), "
                               f"away {ARGS.footpod_away_for} s")
                await peripheral.drop(ARGS.footpod_away_for)
            # Nothing to a link just dropped (it may be listed until its disconnection is processed).
            if peripheral.device.connections and not dropped_now:
                cadence = 172
                payload = rsc_payload(speed * scale, cadence, speed * scale * 60 / cadence, footpod_total)
                kind = "valid"
                if ARGS.footpod_malformed_every and n % ARGS.footpod_malformed_every == 0:
                    payload, kind = payload[:5], "malformed"
                await peripheral.device.notify_subscribers(rsc, payload)
                sent.record({"device": "footpod", "n": n, "t": round(t, 3), "hex": payload.hex(), "kind": kind,
                             "speed": round(speed * scale, 4), "total_m": int(footpod_total * 10) / 10,
                             "true_m": round(footpod_true, 3), "scale": round(scale, 5),
                             "route": route_t0 is not None})
        if treadmill:
            peripheral, data, status = treadmill
            # The belt runs from its first subscriber on: 3 s after the connection, once it has had
            # time to subscribe (a status sent before would reach nobody).
            if (peripheral.device.connections and treadmill_started is None and peripheral.connected_at
                    and now - peripheral.connected_at >= 3):
                treadmill_started = now
                await peripheral.device.notify_subscribers(status, bytes([0x04]))
                sent.record({"device": "treadmill", "n": n, "t": round(t, 3), "hex": "04", "kind": "status"})
                continue
            if treadmill_started is not None:
                elapsed = now - treadmill_started
                # The workout repeats: every session that follows the belt sees its steps.
                within = elapsed % ARGS.workout_cycle
                belt = [s for start, s in steps if start <= within][-1] if within >= steps[0][0] else 0.0
                treadmill_total += belt * dt
                if peripheral.device.connections:
                    payload = treadmill_payload(belt, treadmill_total, ARGS.grade, int(elapsed))
                    await peripheral.device.notify_subscribers(data, payload)
                    sent.record({"device": "treadmill", "n": n, "t": round(t, 3), "hex": payload.hex(),
                                 "kind": "valid", "speed": belt, "total_m": int(treadmill_total),
                                 "true_m": round(treadmill_total, 3)})


async def main():
    link = LinkWithConnectionAddresses()
    if ARGS.hci:
        kernel = await open_transport(ARGS.hci)
    else:
        kernel = await open_transport(f"vhci:{ARGS.vhci}" if ARGS.vhci else "vhci")
    KernelFacingController("C-kernel", host_source=kernel.source, host_sink=kernel.sink, link=link,
                           public_address=KERNEL_SIDE)
    sent = SentLog(ARGS.sent_log)
    tasks = []
    peripherals = []
    if ARGS.strap:
        strap, measurement = make_strap(link)
        peripherals.append(strap)
        tasks.append(lambda: run_strap(strap, measurement, sent))
    footpod = make_footpod(link) if ARGS.footpod else None
    treadmill = make_treadmill(link) if ARGS.treadmill else None
    peripherals += [device[0] for device in (footpod, treadmill) if device]
    if footpod or treadmill:
        tasks.append(lambda: run_speed_sensors(footpod, treadmill, sent))
    if not peripherals:
        sys.exit("world: no device asked for (--strap, --footpod, --treadmill)")
    for peripheral in peripherals:
        await peripheral.start()
    print("READY", flush=True)
    await asyncio.gather(*(task() for task in tasks))


def arguments():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--vhci", default="", help="the virtual HCI device (default /dev/vhci)")
    ap.add_argument("--hci", default="",
                    help="instead of /dev/vhci, a Bumble transport to the kernel (unix-server:PATH: a VM's UART, "
                         "which the guest attaches with btattach, as a Pi attaches its own controller)")
    ap.add_argument("--sent-log", default="", help="append every notification sent to this JSONL file")
    ap.add_argument("--strap", action="store_true", help="the heart-rate strap")
    ap.add_argument("--strap-interval", type=float, default=1.0, help="seconds between notifications")
    ap.add_argument("--strap-bpm", type=int, default=120, help="centre heart rate")
    ap.add_argument("--strap-swing", type=int, default=25, help="the heart rate swings this much around the centre")
    ap.add_argument("--strap-uint16", action="store_true", help="send the heart rate as uint16")
    ap.add_argument("--strap-energy", action="store_true", help="include energy expended")
    ap.add_argument("--strap-no-rr", dest="strap_rr", action="store_false", help="leave RR intervals out")
    ap.add_argument("--strap-battery", type=int, help="add a Battery service reporting this level")
    ap.add_argument("--strap-contact-off", type=float, nargs=2, metavar=("FROM", "TO"),
                    help="sensor contact lost between these seconds since start")
    ap.add_argument("--strap-malformed-every", type=int, default=0, help="every Nth notification is cut short")
    ap.add_argument("--strap-drop-after", type=float, default=0, help="drop the link after N s connected")
    ap.add_argument("--strap-drops", type=int, default=1, help="how many times to drop it")
    ap.add_argument("--strap-away-for", type=float, default=0, help="stay out of range this long after a drop")
    ap.add_argument("--strap-require-bond", action="store_true",
                    help="refuse notifications over a link that is not encrypted (bonding needed)")
    ap.add_argument("--footpod", action="store_true", help="the footpod")
    ap.add_argument("--duration", type=float, default=120, help="the run's planned length (the drift's span)")
    ap.add_argument("--footpod-scale", type=float, default=1.07, help="footpod distance / true distance")
    ap.add_argument("--footpod-drift", type=float, default=0.0, help="the scale moves this much over the run")
    ap.add_argument("--footpod-drop-after", type=float, default=0)
    ap.add_argument("--footpod-away-for", type=float, default=0)
    ap.add_argument("--footpod-drops", type=int, default=1, help="how many times the link is dropped")
    ap.add_argument("--footpod-malformed-every", type=int, default=0)
    ap.add_argument("--treadmill", action="store_true", help="the treadmill")
    ap.add_argument("--workout", default="0:2.5,20:3.3,40:4.0,60:2.0", help="from second:m/s, ...")
    ap.add_argument("--workout-cycle", type=float, default=80, help="the workout starts again after this (s)")
    ap.add_argument("--grade", type=float, default=1.0, help="the treadmill's incline (%%)")
    ap.add_argument("--route", default="", help="a route's truth (tunnel_route.py's JSON)")
    ap.add_argument("--route-go", default="", help="the file whose appearance starts the route")
    ap.add_argument("--route-scale", type=float, default=1.03, help="footpod distance / true on the route")
    ap.add_argument("--route-latency", type=float, default=0.3, help="gpsfake's start to its first epoch (s)")
    return ap.parse_args()


if __name__ == "__main__":
    ARGS = arguments()
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
