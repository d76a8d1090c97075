/// Notices a reported field that repeats the same value fix after fix: a placeholder the
/// receiver (or gpsd, from a fixed DOP) fills in, which says nothing about this fix's error.
struct FieldWatch: Sendable {
    private var last = Double.nan
    private var lastTime = Double.nan
    private var repeats = 0

    /// The value if it still carries information, nil once it has repeated `limit` times over
    /// distinct epochs (`time` in seconds; a duplicated epoch is not a repeat).
    @inline(__always)
    mutating func observe(_ value: Double?, at time: Double, limit: Int) -> Double? {
        guard let value, value.isFinite, value >= 0 else { return nil }
        if value == last {
            if time != lastTime { repeats += 1 }
        } else {
            last = value
            repeats = 0
        }
        lastTime = time
        return repeats >= limit ? nil : value
    }
}
