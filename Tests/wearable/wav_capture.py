"""What the virtual wearable's sound card played: qemu's `wav` audiodev writes the emulated HDA
card's output to a WAV file on the host, but only while the guest plays (the silence between cues
is not in the file). A watcher notes how the file grows, so each byte of it gets the host time it
was played at, and the playbacks (one per cue) are told apart by the pauses in that growth."""
import array
import bisect
import math
import os
import struct
import threading
import time

HEADER = 44  # qemu writes the canonical 44-byte header (its sizes only at a clean exit)


class WavCapture(threading.Thread):
    def __init__(self, path, every=0.02):
        super().__init__(daemon=True)
        self.path = path
        self.every = every
        self.growth = []  # (host time, size), each time the size changed
        self.stopping = threading.Event()

    def run(self):
        last = -1
        while not self.stopping.is_set():
            try:
                size = os.stat(self.path).st_size
            except FileNotFoundError:
                size = -1
            if size != last:
                self.growth.append((time.time(), size))
                last = size
            time.sleep(self.every)

    def stop(self):
        self.stopping.set()
        self.join(2)

    def format(self):
        with open(self.path, "rb") as f:
            header = f.read(HEADER)
        channels, rate = struct.unpack("<HI", header[22:28])
        bits = struct.unpack("<H", header[34:36])[0]
        return channels, rate, bits

    def time_of(self, offset, byterate, sizes):
        """Host time the byte at `offset` was played: the card plays in real time, so it went out
        (size - offset) / byterate before the look that first saw the file reach `size`."""
        i = bisect.bisect_left(sizes, offset)
        if i == len(sizes):
            return None
        at, size = self.growth[i]
        return at - (size - offset) / byterate

    def utterances(self, threshold=300, merge=0.7):
        """Each stretch of sound louder than `threshold` (16-bit RMS over 10 ms), pauses shorter than
        `merge` s inside it: (host time it began, host time it ended, its RMS), in order."""
        channels, rate, bits = self.format()
        assert bits == 16, f"unexpected WAV format: {bits} bits"
        byterate = rate * channels * 2
        with open(self.path, "rb") as f:
            f.seek(HEADER)
            data = f.read()
        samples = array.array("h")
        samples.frombytes(data[: len(data) - len(data) % 2])
        window = rate * channels // 100
        sizes = [size for _, size in self.growth]
        result = []  # [start, end, sum of squares, count]
        for offset in range(0, len(samples) - window + 1, window):
            chunk = samples[offset:offset + window]
            energy = sum(x * x for x in chunk)
            if math.sqrt(energy / window) <= threshold:
                continue
            start = self.time_of(HEADER + offset * 2, byterate, sizes)
            end = self.time_of(HEADER + (offset + window) * 2, byterate, sizes)
            if start is None or end is None:
                continue
            if result and start - result[-1][1] < merge:
                result[-1][1] = end
                result[-1][2] += energy
                result[-1][3] += window
            else:
                result.append([start, end, energy, window])
        return [(start, end, math.sqrt(energy / count)) for start, end, energy, count in result]
