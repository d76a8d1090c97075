extension EventValue: CustomStringConvertible {
    /// As a log line shows it: numbers as numbers, text as is.
    public var description: String {
        switch self {
        case .number(let value): value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .text(let text): text
        }
    }
}
