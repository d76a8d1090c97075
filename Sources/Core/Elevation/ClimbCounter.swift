/// Elevation gain and loss with a hysteresis: a rise counts once the altitude is `threshold`
/// metres above the lowest point since the last counted descent, and the other way round, so
/// noise smaller than the threshold never counts.
///
/// Counted in whole runs: when a turn is confirmed the whole rise from the lowest point counts,
/// not only what exceeded the threshold, so no climb is short by the threshold; past the turn,
/// every new high (or low) counts at once.
public struct ClimbCounter: Sendable, Equatable {
    private enum State: Sendable, Equatable {
        case empty
        /// No run confirmed yet: the lowest and highest altitudes so far.
        case unknown(low: Double, high: Double)
        /// The highest altitude of the rise being counted.
        case rising(top: Double)
        /// The lowest altitude of the descent being counted.
        case falling(bottom: Double)
    }

    /// Metres; may change between altitudes (a barometer calibrated mid-session).
    public var threshold: Double
    public private(set) var gain = 0.0
    public private(set) var loss = 0.0
    private var state = State.empty

    public init(threshold: Double) {
        self.threshold = threshold
    }

    /// Takes the next altitude of a moving wearer.
    public mutating func add(_ altitude: Double) {
        guard altitude.isFinite else { return }
        switch state {
        case .empty:
            state = .unknown(low: altitude, high: altitude)
        case .unknown(let low, let high):
            if altitude - low >= threshold {
                gain += altitude - low
                state = .rising(top: altitude)
            } else if high - altitude >= threshold {
                loss += high - altitude
                state = .falling(bottom: altitude)
            } else {
                state = .unknown(low: min(low, altitude), high: max(high, altitude))
            }
        case .rising(let top):
            if altitude > top {
                gain += altitude - top
                state = .rising(top: altitude)
            } else if top - altitude >= threshold {
                loss += top - altitude
                state = .falling(bottom: altitude)
            }
        case .falling(let bottom):
            if altitude < bottom {
                loss += bottom - altitude
                state = .falling(bottom: altitude)
            } else if altitude - bottom >= threshold {
                gain += altitude - bottom
                state = .rising(top: altitude)
            }
        }
    }

    /// Moves the counting's reference by `offset` without counting it: an altitude that changed
    /// by what nobody climbed (a standstill's drift, a calibration that moved the level).
    public mutating func shift(by offset: Double) {
        guard offset.isFinite else { return }
        switch state {
        case .empty: break
        case .unknown(let low, let high): state = .unknown(low: low + offset, high: high + offset)
        case .rising(let top): state = .rising(top: top + offset)
        case .falling(let bottom): state = .falling(bottom: bottom + offset)
        }
    }
}
