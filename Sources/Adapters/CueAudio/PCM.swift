/// Mono 16-bit speech as rendered, and its WAV file form (what the players take).
public struct PCM: Sendable, Equatable {
    public var samples: [Int16]
    public var sampleRate: Int

    public init(samples: [Int16], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    /// Reads a RIFF/WAVE file of 16-bit mono PCM, as `espeak-ng --stdout` writes it: its sizes
    /// are placeholders past the end (it streams), so its data runs to the end of the bytes.
    public init(wav bytes: [UInt8]) throws(WAVError) {
        func word(_ at: Int, _ count: Int) -> Int {
            (0..<count).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
        }
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8)
        else { throw .notWAV }
        var at = 12
        var rate: Int?
        while at + 8 <= bytes.count {
            let size = word(at + 4, 4)
            let body = at + 8
            if bytes[at..<at + 4].elementsEqual("fmt ".utf8) {
                guard size >= 16, body + 16 <= bytes.count else { throw .truncated("fmt ") }
                let (format, channels, bits) = (word(body, 2), word(body + 2, 2), word(body + 14, 2))
                guard format == 1, channels == 1, bits == 16 else {
                    throw .unsupported(format: format, channels: channels, bits: bits)
                }
                rate = word(body + 4, 4)
            } else if bytes[at..<at + 4].elementsEqual("data".utf8) {
                guard let rate else { throw .truncated("fmt ") }
                // A size past the end is espeak-ng's placeholder: the samples run to the end.
                let stop = min(body + size, bytes.count)
                let end = stop - (stop - body) % 2
                var samples = [Int16]()
                samples.reserveCapacity((end - body) / 2)
                for index in stride(from: body, to: end, by: 2) {
                    samples.append(Int16(bitPattern: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8))
                }
                self.init(samples: samples, sampleRate: rate)
                return
            }
            // Chunks are padded to an even size; one that claims to run past the end ends the file.
            let next = body + size + size % 2
            guard next > at, next <= bytes.count else { break }
            at = next
        }
        throw .truncated("data")
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

/// Why bytes are not a WAV file this reads.
public enum WAVError: Error, Equatable, CustomStringConvertible {
    case notWAV
    case truncated(String)
    case unsupported(format: Int, channels: Int, bits: Int)

    public var description: String {
        switch self {
        case .notWAV: "no RIFF/WAVE header"
        case .truncated(let chunk): "no whole \"\(chunk)\" chunk"
        case .unsupported(let format, let channels, let bits):
            "format \(format), \(channels) channels, \(bits) bits: not 16-bit mono PCM"
        }
    }
}
