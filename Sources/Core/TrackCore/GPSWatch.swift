/// "GPS lost", judged by one rule wherever it is asked: no usable fix for `lostAfter` seconds.
///
/// The session's track owns one (its events and its loss count); the engine asks the same rule
/// for `status` while no session is fed. The caller keeps the time of the last usable fix and
/// says what "now" is, on the same time base (GPS time in a track, receive instants outside one).
public struct GPSWatch: Sendable, Equatable {
    public let lostAfter: Double
    /// A silence this long is a clock jump, not an outage: not judged.
    public let maxSilence: Double
    public private(set) var isLost = false
    public private(set) var losses = 0

    public init(lostAfter: Double, maxSilence: Double = 12 * 3600) {
        self.lostAfter = lostAfter
        self.maxSilence = maxSilence
    }

    /// The loss, once, when the silence since `lastUsable` passes `lostAfter` at `now`.
    public mutating func judge(now: GPSTime, lastUsable: GPSTime?) -> TrackEvent? {
        guard !isLost, let lastUsable else { return nil }
        let silence = now.since(lastUsable)
        guard silence > lostAfter, silence < maxSilence else { return nil }
        isLost = true
        losses += 1
        return .gpsLost(lastFix: lastUsable)
    }

    /// A usable fix at `time`: the loss, if there was one, ends.
    public mutating func regained(at time: GPSTime, lastUsable: GPSTime?) -> TrackEvent? {
        guard isLost, let lastUsable else { return nil }
        isLost = false
        return .gpsRegained(at: time, after: time.since(lastUsable))
    }
}
