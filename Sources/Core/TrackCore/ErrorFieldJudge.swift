/// Decides which of a receiver's own error fields to believe, before the gate and the filter see
/// them: a field that contradicts the others or cannot be true is treated as absent, so that the
/// learnt noise (`NoiseScale`) takes its place instead of a number the receiver made up.
///
/// - A field repeating the same value for `placeholderRepeats` fixes is a placeholder.
/// - `epx`/`epy` and `eph` measure the same error (95% per axis, 95% radius): when they disagree by
///   more than `fieldDisagreement`, one of them is wrong, and `epx`/`epy` (most often gpsd's own
///   product of DOP and a guessed range error) are dropped until the two agree again.
/// - gpsd derives `eps` from the position errors when the receiver gives none (for NMEA, twice
///   `epx`): it goes with `epx`/`epy` when they are dropped. A large `eps` that varies with the
///   fix's quality is believed: a receiver losing its fix says its Doppler is unreliable.
public struct ErrorFieldJudge: Sendable {
    /// Fields the judge currently ignores, for reports.
    public struct Ignored: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let eph = Ignored(rawValue: 1)
        public static let epxEpy = Ignored(rawValue: 2)
        public static let eps = Ignored(rawValue: 4)
    }

    private let placeholderRepeats: Int
    private let disagreement: Double
    private var eph = FieldWatch()
    private var epx = FieldWatch()
    private var epy = FieldWatch()
    private var eps = FieldWatch()
    private var axesDisagree = false
    /// The fields the last agreement check saw: most receivers repeat them for long stretches.
    private var lastChecked = (radius: -1.0, east: -1.0, north: -1.0)
    /// Every field ignored at least once in the session.
    public private(set) var everIgnored: Ignored = []

    init(profile: ActivityProfile) {
        placeholderRepeats = profile.receiver.placeholderRepeats
        disagreement = profile.receiver.fieldDisagreement
    }

    /// The fix's error fields that are to be believed.
    @inline(__always)
    mutating func judge(_ fix: Fix) -> BelievedErrors {
        var judged = BelievedErrors()
        let limit = placeholderRepeats
        let time = fix.time?.seconds ?? .nan
        judged.horizontal = eph.observe(fix.horizontalError, at: time, limit: limit)
        let east = epx.observe(fix.errorEast, at: time, limit: limit)
        let north = epy.observe(fix.errorNorth, at: time, limit: limit)
        if let radius = fix.horizontalError, radius.isFinite, radius > 0, let ex = fix.errorEast,
            let ey = fix.errorNorth,
            ex.isFinite, ey.isFinite, (radius, ex, ey) != lastChecked
        {
            lastChecked = (radius, ex, ey)
            // Both are 95% figures: hypot(epx, epy) is about 1.13 eph for a round error. Compared
            // squared, with no root.
            let axes = ex * ex + ey * ey
            let expected = 1.13 * 1.13 * radius * radius
            let k = disagreement * disagreement
            axesDisagree = axes > k * expected || axes * k < expected
        }
        if !axesDisagree, let east, let north {
            judged.east = east
            judged.north = north
        }
        let speedError = eps.observe(fix.speedError, at: time, limit: limit)
        judged.speed = axesDisagree ? nil : speedError

        if fix.horizontalError != nil && judged.horizontal == nil { everIgnored.insert(.eph) }
        if fix.errorEast != nil && judged.east == nil { everIgnored.insert(.epxEpy) }
        if fix.speedError != nil && judged.speed == nil { everIgnored.insert(.eps) }
        return judged
    }
}
