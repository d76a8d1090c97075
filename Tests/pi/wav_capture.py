"""What the virtual wearable's sound card played: qemu's `wav` audiodev writes the emulated HDA
card's output to a WAV file on the host, but only while the guest plays (the silence between cues
is not in the file). A watcher notes how the file grows: the playbacks (one per cue) are told apart
by the pauses in that growth, and each gets the host time it began."""
import array
import json
import math
import os
import struct
import threading
import time

HEADER = 44  # qemu writes the canonical 44-byte header (its sizes only at a clean exit)
BUFFERED = 8192  # glibc's BUFSIZ: what qemu's fwrite() may hold back


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
        # Kept beside the WAV, so that a failed check can be looked at again.
        with open(self.path + ".growth.json", "w") as f:
            json.dump(self.growth, f)

    def format(self):
        with open(self.path, "rb") as f:
            header = f.read(HEADER)
        channels, rate = struct.unpack("<HI", header[22:28])
        bits = struct.unpack("<H", header[34:36])[0]
        return channels, rate, bits

    def playbacks(self, byterate, pause=0.4):
        """The playbacks in the file, as (first byte, end byte, host time the first byte was played),
        told apart by pauses of more than `pause` s in its growth. Within one, the card plays in
        real time: the time of a byte is its playback's start plus its distance from it. (The
        growth within a playback is not used for that: qemu's writes are buffered, and the last few
        KB of a cue can reach the file only when the next one starts.)"""
        growth = [(at, size) for at, size in self.growth if size >= HEADER]
        result = []
        begin, begin_at = HEADER, None
        for (at, size), (next_at, next_size) in zip([(None, HEADER)] + growth, growth):
            if at is None or next_at - at > pause:
                if begin_at is not None:
                    result.append((begin, size, begin_at))
                # The first look that saw it grow: its first byte went out (growth) / byterate before.
                begin, begin_at = size, next_at - (next_size - size) / byterate
        if begin_at is not None and growth:
            result.append((begin, growth[-1][1], begin_at))
        # What qemu's stdio buffer held back (at most BUFSIZ, 8 KB) reaches the file on its own only
        # when qemu exits: the last cue's tail, not a playback.
        return [(first, end, at) for first, end, at in result if end - first > BUFFERED]

    def utterances(self, threshold=300, merge=0.7):
        """Each stretch of sound louder than `threshold` (16-bit RMS over 10 ms), pauses shorter than
        `merge` s inside it, never across two playbacks: (host time it began, host time it ended, its
        RMS), in order."""
        channels, rate, bits = self.format()
        assert bits == 16, f"unexpected WAV format: {bits} bits"
        byterate = rate * channels * 2
        with open(self.path, "rb") as f:
            f.seek(HEADER)
            data = f.read()
        samples = array.array("h")
        samples.frombytes(data[: len(data) - len(data) % 2])
        window = rate * channels // 100
        result = []  # [start, end, sum of squares, count, playback]
        for number, (first, end, began) in enumerate(self.playbacks(byterate)):
            first_sample = (first - HEADER) // 2
            last_sample = min((end - HEADER) // 2, len(samples))
            for offset in range(first_sample, last_sample - window + 1, window):
                chunk = samples[offset:offset + window]
                energy = sum(x * x for x in chunk)
                if math.sqrt(energy / window) <= threshold:
                    continue
                start = began + (offset - first_sample) * 2 / byterate
                stop = start + window * 2 / byterate
                if result and result[-1][4] == number and start - result[-1][1] < merge:
                    result[-1][1] = stop
                    result[-1][2] += energy
                    result[-1][3] += window
                else:
                    result.append([start, stop, energy, window, number])
        return [(start, end, math.sqrt(energy / count)) for start, end, energy, count, _ in result]
