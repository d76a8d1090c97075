/// A step's length before any calibration, from the cadence alone: what turns a count of steps
/// into metres until the wearer's own stride has been learnt against GPS (as a footpod's factor
/// is). Longer steps come with a quicker cadence; the prior is a straight line through typical
/// adult figures, about 0.55 m a step at 80 steps a minute (a slow walk) and 1.2 m at 170 (a
/// steady run), held within 0.4 to 1.8 m. A prior, not a measurement: it may be a fifth off for a
/// given wearer, which the GPS calibration's factor per pace band corrects.
public enum StepLength {
    public static let slowest = (cadence: 80.0, metres: 0.55)
    public static let brisk = (cadence: 170.0, metres: 1.2)
    public static let shortest = 0.4
    public static let longest = 1.8

    /// Metres a step at `cadence` steps a minute.
    public static func prior(cadence: Double) -> Double {
        let slope = (brisk.metres - slowest.metres) / (brisk.cadence - slowest.cadence)
        return min(longest, max(shortest, slowest.metres + (cadence - slowest.cadence) * slope))
    }
}
