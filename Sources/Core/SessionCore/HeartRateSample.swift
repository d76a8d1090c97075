import HeartRate

/// One beat report from the strap as the session keeps it.
public struct HeartRateSample: Sendable, Equatable {
    public var bpm: Int
    public var contact: SensorContact
    public var energyExpended: Int?
    /// RR intervals as sent, in 1/1024 s.
    public var rrIntervals: [UInt16]
    /// Monotonic receive instant.
    public var receivedAt: Double
    /// The notification's bytes as they came: the log keeps them, so nothing is lost to decoding.
    public var payload: [UInt8]

    public init(
        bpm: Int,
        contact: SensorContact,
        energyExpended: Int? = nil,
        rrIntervals: [UInt16] = [],
        receivedAt: Double,
        payload: [UInt8] = []
    ) {
        self.bpm = bpm
        self.contact = contact
        self.energyExpended = energyExpended
        self.rrIntervals = rrIntervals
        self.receivedAt = receivedAt
        self.payload = payload
    }

    /// A measurement as the strap link delivered it.
    public init(_ measurement: HeartRateMeasurement, payload: [UInt8], receivedAt: Double) {
        self.init(
            bpm: measurement.bpm,
            contact: measurement.contact,
            energyExpended: measurement.energyExpended,
            rrIntervals: measurement.rrIntervals,
            receivedAt: receivedAt,
            payload: payload
        )
    }

    /// A strap without skin contact reports noise; it is kept in the log but not in the figures.
    public var countsForFigures: Bool { contact != .notDetected }
}
