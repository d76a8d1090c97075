import Foundation

/// How long a test waits for what it awaits: the timeout a test names is what the awaited thing
/// takes on an idle machine, with room; the guard against a hang is `factor` times it, since the
/// suite runs its phases side by side on two cores beside builds and emulated guests, and a wait
/// that ends when its event comes costs nothing more for a larger guard. How soon something happens
/// is a figure for a benchmark, never a test's deadline. WEARBRIDGE_GUARD sets the factor (4).
public enum Patience {
    public static let factor: Double = {
        guard let text = ProcessInfo.processInfo.environment["WEARBRIDGE_GUARD"], let value = Double(text),
            value >= 1
        else { return 4 }
        return value
    }()

    /// The guard for a wait whose event comes within `seconds` on an idle machine.
    public static func guarding(_ seconds: Double) -> Double { seconds * factor }
}
