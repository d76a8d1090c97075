/// A command id made by the page: a retry or a double click carries the same one, so the wearable
/// applies the command once. 8 to 64 characters of letters, digits, `-` and `_` (a UUID fits).
public struct CommandID: Sendable, Hashable, CustomStringConvertible {
    public let description: String

    /// Nil with the reason when `text` is not an id.
    public static func parse(_ text: String) -> Result<CommandID, CommandIDError> {
        guard (8...64).contains(text.utf8.count) else { return .failure(.length(text.utf8.count)) }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                continue
            default:
                return .failure(.character(byte))
            }
        }
        return .success(CommandID(description: text))
    }

    /// An id a command's standing is looked up by: a page's, or one the phone made for a course's
    /// part (its course's id, `:` and the part's index).
    public static func parse(standing text: String) -> Result<CommandID, CommandIDError> {
        guard let colon = text.lastIndex(of: ":") else { return parse(text) }
        let index = text[text.index(after: colon)...]
        guard !index.isEmpty, index.count <= 6, index.allSatisfy(\.isASCIIDigit), text.utf8.count <= 64 else {
            return .failure(.character(UInt8(ascii: ":")))
        }
        return parse(String(text[..<colon])).map { _ in CommandID(description: text) }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

public enum CommandIDError: Error, Equatable, CustomStringConvertible {
    case length(Int)
    case character(UInt8)

    public var description: String {
        switch self {
        case .length(let count): "a command id has 8 to 64 characters, not \(count)"
        case .character(let byte): "a command id has only letters, digits, '-' and '_' (found byte \(byte))"
        }
    }
}
