/// Mono 16-bit speech as rendered, and its WAV file form (what the players take).
public struct PCM: Sendable, Equatable {
    public var samples: [Int16]
    public var sampleRate: Int

    public init(samples: [Int16], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    /// Seconds of sound.
    public var duration: Double { sampleRate > 0 ? Double(samples.count) / Double(sampleRate) : 0 }

    /// Scaled to `percent` of full level (0...100), clipped.
    public func scaled(percent: Int) -> PCM {
        guard percent != 100 else { return self }
        let factor = Double(max(0, percent)) / 100
        let scaled = samples.map { Int16(clamping: Int((Double($0) * factor).rounded())) }
        return PCM(samples: scaled, sampleRate: sampleRate)
    }

    /// A RIFF/WAVE file: 44-byte header, then the samples little-endian.
    public var wav: [UInt8] {
        let dataBytes = samples.count * 2
        var bytes: [UInt8] = []
        bytes.reserveCapacity(44 + dataBytes)
        func put(_ text: String) { bytes += Array(text.utf8) }
        func put32(_ value: Int) {
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
        }
        func put16(_ value: Int) { bytes += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] }
        put("RIFF")
        put32(36 + dataBytes)
        put("WAVEfmt ")
        put32(16)
        put16(1)  // PCM
        put16(1)  // mono
        put32(sampleRate)
        put32(sampleRate * 2)
        put16(2)
        put16(16)
        put("data")
        put32(dataBytes)
        for sample in samples {
            let value = UInt16(bitPattern: sample)
            bytes += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
        }
        return bytes
    }
}
