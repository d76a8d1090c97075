/// The grade of the last `span` metres travelled: the rise of the filtered altitude over them.
///
/// Measured over a distance, not a time: standing still the grade holds, and a slow walker's is
/// as steady as a cyclist's.
public struct GradeWindow: Sendable, Equatable {
    public let span: Double
    /// Metres between the samples kept: a grade over tens of metres needs no finer.
    static let spacing = 4.0
    /// (distance, altitude) pairs `spacing` or more apart, the oldest first, reaching back past `span`.
    private var samples: [(distance: Double, altitude: Double)] = []
    private var head = 0

    public init(span: Double = 40) {
        self.span = span
    }

    public static func == (a: GradeWindow, b: GradeWindow) -> Bool {
        a.span == b.span && a.grade == b.grade
    }

    public mutating func add(distance: Double, altitude: Double) {
        guard distance.isFinite, altitude.isFinite else { return }
        if let last = samples.last, distance < last.distance + Self.spacing { return }
        samples.append((distance, altitude))
        // Drop what the window no longer needs: keep one sample at or beyond `span` behind.
        while head + 1 < samples.count, samples[head + 1].distance <= distance - span { head += 1 }
        if head > 64, head * 2 > samples.count {
            samples.removeFirst(head)
            head = 0
        }
    }

    /// Rise over run (0.05 is 5 %), nil until `span` metres are behind.
    public var grade: Double? {
        guard let last = samples.last, head < samples.count else { return nil }
        let first = samples[head]
        let run = last.distance - first.distance
        guard run >= span else { return nil }
        return (last.altitude - first.altitude) / run
    }
}
