/// A course's name as the wearer and the phone say it: at most 64 characters of one line, without
/// control characters; nil when nothing is left.
public enum CourseName {
    public static let maximumLength = 64

    public static func clean(_ raw: String) -> String? {
        let kept = raw.unicodeScalars.map { scalar -> Character in
            scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
                ? " " : Character(scalar)
        }
        let words = String(kept).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let name = String(words.prefix(maximumLength))
        return name.isEmpty ? nil : name
    }
}
