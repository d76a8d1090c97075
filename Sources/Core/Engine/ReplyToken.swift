import SessionCore

/// Who is waiting for an answer: opaque to the core, which hands it back exactly once in a
/// `.reply` action; the edge that asked (control socket, phone link) maps it to its caller.
public struct ReplyToken: Hashable, Sendable, CustomStringConvertible {
    public let value: UInt64

    public init(_ value: UInt64) {
        self.value = value
    }

    public var description: String { "#\(value)" }
}
