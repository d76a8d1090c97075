/// A runner's name on the relay: their database role and their certificate's CN, so it is kept to
/// what needs no quoting anywhere.
public struct RunnerName: Sendable, Hashable, Codable, CustomStringConvertible {
    public let text: String

    /// Nil unless `text` is a lower-case letter followed by at most 62 lower-case letters, digits or `_`.
    public init?(_ text: String) {
        guard let first = text.unicodeScalars.first, ("a"..."z").contains(first), text.utf8.count <= 63,
            text.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" })
        else { return nil }
        self.text = text
    }

    public var description: String { text }
}
