/// The error estimates of one fix that the core believes, after `ErrorFieldJudge`: gpsd's
/// fields, with those not to be believed left out. Kept beside the fix rather than written into
/// a copy of it, because this runs for every fix.
struct BelievedErrors: Sendable {
    /// `eph`: 95% horizontal radius (m).
    var horizontal: Double?
    /// `epx`/`epy`: 95% bounds along longitude and latitude (m).
    var east: Double?
    var north: Double?
    /// `eps`: speed error (m/s).
    var speed: Double?

    /// One scalar horizontal error for the gate: `eph` when believed, else hypot(`epx`, `epy`).
    var gating: Double? {
        if let horizontal, horizontal >= 0 { return horizontal }
        if let east, let north { return (east * east + north * north).squareRoot() }
        return nil
    }
}
