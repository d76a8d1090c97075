/// Where the wearer carries the IMU (the config's `[imu] placement`): it decides what a step
/// looks like in the acceleration.
public enum Placement: String, Sendable, CaseIterable, Codable {
    /// On the wrist: each step's impact reaches the arm damped, beside the arm's own swing.
    case wrist
    /// On the hip or the back (a Pi in a belt pouch or a pack): every step's impact, clearly.
    case hip
    /// On one ankle: that foot's strike and swing only, one peak a stride, two steps.
    case ankle

    /// Steps per detected peak.
    public var stepsPerPeak: Int { self == .ankle ? 2 : 1 }
}
