/// The steps a pedometer's cumulative count adds up to over a session: each reading's increase; a
/// count that went back (the pedometer began again, its device found anew) counts from zero.
struct StepTally: Sendable, Equatable {
    private(set) var total = 0
    private var last: Int?

    mutating func add(cumulative: Int) {
        if let last { total += cumulative >= last ? cumulative - last : max(0, cumulative) }
        last = cumulative
    }
}

extension TrackSession {
    /// How long the pedometer's "still" holds without another reading (s).
    static let motionStillFor = 3.0

    /// A reading of the wearable's pedometer: its cumulative steps, and whether it judged the
    /// wearer still. Outdoors, "still" is evidence for the auto-pause: a stop is paused on it even
    /// when a receiver's drift shows speed (never on a ride, whose legs rest while the wheels roll).
    public mutating func pedometer(steps: Int?, still: Bool?, at time: GPSTime) {
        if let steps {
            var tally = stepTally ?? StepTally()
            tally.add(cumulative: steps)
            stepTally = tally
        }
        if let still { motionStill = (still, time) }
    }

    /// Steps counted in this session; nil when no pedometer said anything.
    public var stepCount: Int? { stepTally?.total }

    /// Whether the pedometer says the wearer stands still at `time` (its last word no older than
    /// `motionStillFor`).
    func motionSaysStill(at time: GPSTime) -> Bool {
        guard activity != .cycling, let motion = motionStill, motion.still else { return false }
        let age = time.since(motion.at)
        return age >= -1 && age <= Self.motionStillFor
    }
}
