/// One Heart Rate Measurement notification (GATT characteristic 0x2A37), decoded exactly as the
/// Bluetooth SIG Heart Rate Service lays it out.
///
/// Layout: flags (bit 0 uint16 heart rate, bits 1-2 sensor contact, bit 3 energy expended present,
/// bit 4 RR intervals present), heart rate, energy expended (uint16 kJ), then any number of RR
/// intervals (uint16, 1/1024 s), all little-endian. A payload whose required fields are cut short is
/// an error; an odd byte after the last complete RR interval (some real straps send one) is counted
/// in `trailingBytes`, never turned into a value.
public struct HeartRateMeasurement: Sendable, Equatable {
    public var bpm: Int
    public var contact: SensorContact
    /// Energy expended since the last reset, in kilojoules.
    public var energyExpended: Int?
    /// RR intervals as sent, in units of 1/1024 s.
    public var rrIntervals: [UInt16]
    /// Bytes after the last complete field that mean nothing.
    public var trailingBytes: Int

    public init(
        bpm: Int,
        contact: SensorContact,
        energyExpended: Int? = nil,
        rrIntervals: [UInt16] = [],
        trailingBytes: Int = 0
    ) {
        self.bpm = bpm
        self.contact = contact
        self.energyExpended = energyExpended
        self.rrIntervals = rrIntervals
        self.trailingBytes = trailingBytes
    }

    public init(payload: some Collection<UInt8>) throws(HeartRateMeasurementError) {
        let bytes = Array(payload)
        guard let flags = bytes.first else { throw .empty }
        var offset = 1
        let wide = flags & 0x01 != 0
        let width = wide ? 2 : 1
        guard bytes.count >= offset + width else {
            throw .truncatedHeartRate(needed: width, offset: offset, length: bytes.count)
        }
        bpm = wide ? Int(Self.uint16(bytes, at: offset)) : Int(bytes[offset])
        offset += width
        switch (flags & 0x04 != 0, flags & 0x02 != 0) {
        case (false, _): contact = .notSupported
        case (true, false): contact = .notDetected
        case (true, true): contact = .detected
        }
        if flags & 0x08 != 0 {
            guard bytes.count >= offset + 2 else { throw .truncatedEnergy(offset: offset, length: bytes.count) }
            energyExpended = Int(Self.uint16(bytes, at: offset))
            offset += 2
        } else {
            energyExpended = nil
        }
        var intervals: [UInt16] = []
        if flags & 0x10 != 0 {
            while offset + 2 <= bytes.count {
                intervals.append(Self.uint16(bytes, at: offset))
                offset += 2
            }
        }
        rrIntervals = intervals
        trailingBytes = bytes.count - offset
    }

    /// RR intervals in milliseconds, rounded to 0.1 ms as field tools print them.
    public var rrMilliseconds: [Double] { rrIntervals.map { (Double($0) / 1024 * 10_000).rounded() / 10 } }

    private static func uint16(_ bytes: [UInt8], at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }
}
