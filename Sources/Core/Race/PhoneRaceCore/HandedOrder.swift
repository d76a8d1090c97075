/// Where the countdown order for a race stands on the phone: the newest order handed to the
/// wearable (the first, or one handed again) and whether the wearable took any of them.
public struct HandedOrder: Sendable, Equatable {
    /// The wearable's answer to the newest order.
    public enum Answer: Sendable, Equatable {
        /// Queued or sent, not answered yet.
        case waiting
        /// Armed.
        case took
        /// Not ready (no fix yet, just switched on): worth handing again.
        case notReady(String)
        /// It cannot take it (a session under way, or a countdown it cannot arm), in its words.
        case cannot(String)
        /// Its deadline passed unanswered.
        case lapsed
    }

    /// The wearable acknowledged one of the race's orders.
    public var taken: Bool
    /// When the newest order was queued (Unix s).
    public var issuedAt: Double
    public var answer: Answer

    public init(taken: Bool, issuedAt: Double, answer: Answer) {
        self.taken = taken
        self.issuedAt = issuedAt
        self.answer = answer
    }
}
