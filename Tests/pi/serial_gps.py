"""A GPS receiver on the virtual wearable's USB serial port (qemu's usb-serial, an FTDI FT232 to the
guest, its other end a Unix socket here): a recorded NMEA run played at its own pace, one epoch a
second, each stamped with the current UTC time as a live receiver would. Until `go()` the rider waits
at the recording's first epoch (its position, speed zero), however long the wearable takes to boot;
from then on the run goes on while the wearable is off, and what nobody reads then is lost, as on a
real serial line."""
import fcntl
import os
import socket
import struct
import termios
import threading
import time
from datetime import datetime, timezone


def checksum(body):
    value = 0
    for byte in body.encode("ascii"):
        value ^= byte
    return f"{value:02X}"


def epochs(path):
    """The recording's epochs: the sentences from one RMC to the next (RMC, GGA, GSA, GST...)."""
    result = []
    with open(path, encoding="ascii", errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line.startswith("$"):
                continue
            if line[3:6] == "RMC" or not result:
                result.append([])
            result[-1].append(line)
    return result


def position(epoch):
    """(lat, lon, speed m/s, valid) of an epoch's RMC."""
    for sentence in epoch:
        if sentence[3:6] != "RMC":
            continue
        fields = sentence.split("*")[0].split(",")
        if fields[2] != "A" or not fields[3]:
            return None, None, None, False
        lat = int(fields[3][:2]) + float(fields[3][2:]) / 60
        lon = int(fields[5][:3]) + float(fields[5][3:]) / 60
        lat = -lat if fields[4] == "S" else lat
        lon = -lon if fields[6] == "W" else lon
        return lat, lon, float(fields[7] or 0) * 0.514444, True
    return None, None, None, False


def edited(sentence, edit):
    """The sentence with `edit(kind, fields)` applied to its fields (kind: "RMC", "GGA"...), its
    checksum made anew."""
    fields = sentence[1:].split("*")[0].split(",")
    edit(fields[0][2:], fields)
    body = ",".join(fields)
    return f"${body}*{checksum(body)}"


def standing(epoch):
    """The epoch as a receiver at rest reports it: the same position, speed (RMC, VTG) zero."""
    def at_rest(kind, fields):
        for i in {"RMC": (7,), "VTG": (5, 7)}.get(kind, ()):
            if len(fields) > i and fields[i]:
                fields[i] = "0.0"
    return [edited(sentence, at_rest) for sentence in epoch]


def restamp(sentence, utc):
    """The sentence with its time (and RMC's date) set to `utc`, its checksum made anew."""
    hhmmss = utc.strftime("%H%M%S") + f".{utc.microsecond // 10000:02d}"

    def stamp(kind, fields):
        if kind in ("RMC", "GGA", "GST", "GLL", "ZDA") and len(fields) > 1 and fields[1]:
            fields[1] = hhmmss
        if kind == "GLL" and len(fields) > 5:
            fields[5] = hhmmss
        if kind == "RMC" and len(fields) > 9:
            fields[9] = utc.strftime("%d%m%y")
    return edited(sentence, stamp)


class SerialGPS(threading.Thread):
    """Plays `recording` from epoch `start` into the qemu chardev socket at `path`, reconnecting
    when the wearable reboots: at rest at that epoch until `go()`, then the recording at its pace.
    `sent` holds (utc, index, lat, lon, speed, valid, delivered) per second."""

    def __init__(self, path, recording, start):
        super().__init__(daemon=True)
        self.path = path
        self.epochs = epochs(recording)
        self.start_index = start
        self.sent = []
        self.stopping = threading.Event()
        self.connection = None
        self.lock = threading.Lock()
        self.received = 0  # bytes the guest wrote to the receiver (gpsd's probes)
        self.going = threading.Event()

    def go(self):
        """The rider sets off: from the next second on, the recording plays from `start`."""
        self.going.set()

    def _connect(self):
        if self.connection is not None:
            return self.connection
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        # A small send buffer: an epoch nobody reads is dropped here, not delivered minutes late.
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        try:
            connection.connect(self.path)
        except OSError:
            connection.close()
            return None
        connection.setblocking(False)
        self.connection = connection
        return connection

    def _unsent(self, connection):
        return struct.unpack("i", fcntl.ioctl(connection.fileno(), termios.TIOCOUTQ, b"\0\0\0\0"))[0]

    def _drain(self, connection):
        """Reads what the guest wrote to the receiver. qemu's usb-serial writes to its chardev with
        the emulator's lock held, so a receiver that never reads would freeze the whole wearable."""
        while True:
            try:
                chunk = connection.recv(65536)
            except BlockingIOError:
                return
            if not chunk:
                raise OSError("the wearable closed the serial line")
            self.received += len(chunk)

    def _write(self, data):
        connection = self._connect()
        if connection is None:
            return False
        try:
            self._drain(connection)
            if self._unsent(connection) > 512:
                return False  # the guest is not reading (booting, gpsd not started): a lost epoch
            connection.send(data)
            return True
        except OSError:
            connection.close()
            self.connection = None
            return False

    def run(self):
        t0 = int(time.time()) + 1
        second = 0  # seconds since t0
        played = 0  # epochs of the recording played since go()
        at_rest = standing(self.epochs[self.start_index])
        while not self.stopping.is_set():
            at = t0 + second
            second += 1
            # A receiver's epoch leaves it about a tenth of a second after the second it is for.
            delay = at + 0.1 - time.time()
            if delay > 0 and self.stopping.wait(delay):
                return
            if self.going.is_set():
                index = self.start_index + played
                if index >= len(self.epochs):
                    return
                epoch = self.epochs[index]
                played += 1
            else:
                index, epoch = self.start_index, at_rest
            utc = datetime.fromtimestamp(at, timezone.utc)
            data = "".join(restamp(s, utc) + "\r\n" for s in epoch).encode("ascii")
            delivered = self._write(data)
            lat, lon, speed, valid = position(epoch)
            with self.lock:
                self.sent.append((at, index, lat, lon, speed, valid, delivered))

    def stop(self):
        self.stopping.set()
        self.join(3)
        if self.connection is not None:
            self.connection.close()
