/// One beat report from the strap as the session keeps it (the Bluetooth layer's measurement,
/// without depending on it).
public struct HeartRateSample: Sendable, Equatable {
    public var bpm: Int
    /// "detected", "not_detected" or "not_supported".
    public var contact: String
    public var energyExpended: Int?
    /// RR intervals as sent, in 1/1024 s.
    public var rrIntervals: [UInt16]
    /// Monotonic receive instant.
    public var receivedAt: Double
    /// The notification's bytes as they came: the log keeps them, so nothing is lost to decoding.
    public var payload: [UInt8]

    public init(
        bpm: Int,
        contact: String,
        energyExpended: Int? = nil,
        rrIntervals: [UInt16] = [],
        receivedAt: Double,
        payload: [UInt8] = []
    ) {
        self.payload = payload
        self.bpm = bpm
        self.contact = contact
        self.energyExpended = energyExpended
        self.rrIntervals = rrIntervals
        self.receivedAt = receivedAt
    }

    /// A strap without skin contact reports noise; it is kept in the log but not in the figures.
    public var countsForFigures: Bool { contact != "not_detected" }
}
