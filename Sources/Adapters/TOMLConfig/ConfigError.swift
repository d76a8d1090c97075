/// A configuration that stops start-up: names the key, the value and what is allowed.
public enum ConfigError: Error, CustomStringConvertible, Equatable {
    case unreadable(path: String, reason: String)
    case syntax(path: String, line: Int, column: Int, reason: String)
    /// Not valid TOML, but the reader cannot say where (toml++ stopped on one of its own checks).
    case unparsable(path: String, reason: String)
    case unknownKey(path: String, key: String, allowed: [String])
    case badValue(path: String, key: String, value: String, allowed: String)
    case conflict(path: String, keys: [String], reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read configuration \(path): \(reason)"
        case .syntax(let path, let line, let column, let reason):
            "\(path):\(line):\(column): not valid TOML: \(reason)"
        case .unparsable(let path, let reason):
            "\(path): not valid TOML: \(reason)"
        case .unknownKey(let path, let key, let allowed):
            "\(path): unknown key \(key); allowed here: \(allowed.joined(separator: ", "))"
        case .badValue(let path, let key, let value, let allowed):
            "\(path): \(key) = \(value) is not allowed; expected \(allowed)"
        case .conflict(let path, let keys, let reason):
            "\(path): \(keys.joined(separator: " and ")) conflict: \(reason)"
        }
    }
}
