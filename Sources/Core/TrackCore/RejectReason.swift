/// Why a fix was not used; each is counted so a field tester can see what the receiver does.
public enum RejectReason: String, CaseIterable, Sendable, Codable, Comparable {
    /// gpsd mode below 2.
    case noFix = "no_fix"
    /// No epoch time: the fix cannot be placed in time.
    case noTime = "no_time"
    /// Missing, non-finite, out-of-range or (0, 0) coordinates.
    case invalidCoordinates = "invalid_coordinates"
    /// A second report for an epoch already used (gpsd sends several TPVs per epoch).
    case duplicateEpoch = "duplicate_epoch"
    /// Earlier than the last used epoch.
    case timeBackwards = "time_backwards"
    /// Later than the last used epoch by more than any real gap.
    case timeJump = "time_jump"
    /// Arrived much later than its epoch, judged against the session's own GPS-to-receive offset.
    case stale
    /// Horizontal error above the adaptive threshold.
    case horizontalError = "horizontal_error"
    /// Doppler or implied speed beyond what the activity allows.
    case impossibleSpeed = "impossible_speed"
    /// Position far outside what the motion filter predicts (multipath); its Doppler is still used.
    case outlier

    public static func < (lhs: RejectReason, rhs: RejectReason) -> Bool { lhs.rawValue < rhs.rawValue }
}
