import TOMLKit

/// Typed access to a TOML table, each failure a `ConfigError` naming the file, the key, the value
/// and what is allowed: the one strict reader of both programs' configurations.
public struct TOMLFields: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public func checkKeys(_ table: TOMLTable, prefix: String, allowed: [String]) throws {
        for key in table.keys.sorted() where !allowed.contains(key) {
            throw ConfigError.unknownKey(path: path, key: prefix + key, allowed: allowed)
        }
    }

    public func table(_ root: TOMLTable, _ key: String) throws -> TOMLTable? {
        guard let value = root[key] else { return nil }
        guard let table = value.table else {
            throw ConfigError.badValue(path: path, key: key, value: "\(value)", allowed: "a table [\(key)]")
        }
        return table
    }

    public func string(_ table: TOMLTable, _ name: String, _ key: String) throws -> String? {
        guard let value = table[key] else { return nil }
        guard let string = value.string else {
            throw ConfigError.badValue(path: path, key: name, value: "\(value)", allowed: "a string")
        }
        return string
    }

    public func integer(
        _ table: TOMLTable,
        _ name: String,
        _ key: String,
        in range: ClosedRange<Int>,
        allowed: String
    ) throws -> Int? {
        guard let value = table[key] else { return nil }
        guard let number = value.int, range.contains(number) else {
            throw ConfigError.badValue(path: path, key: name, value: "\(value)", allowed: allowed)
        }
        return number
    }

    /// Seconds as a number, or a string with a unit: "90s", "15m", "6h", "2d".
    public func duration(
        _ table: TOMLTable,
        _ name: String,
        _ key: String,
        in range: ClosedRange<Double>
    ) throws -> Double? {
        guard let value = table[key] else { return nil }
        let allowed =
            "seconds (a number) or a string like \"90s\", \"15m\", \"6h\", \"2d\", "
            + "from \(Int(range.lowerBound)) s to \(Int(range.upperBound)) s"
        var seconds: Double?
        if let number = value.int {
            seconds = Double(number)
        } else if let number = value.double {
            seconds = number
        } else if let text = value.string {
            seconds = Self.parseDuration(text)
        }
        guard let seconds, seconds.isFinite, range.contains(seconds) else {
            throw ConfigError.badValue(path: path, key: name, value: "\(value)", allowed: allowed)
        }
        return seconds
    }

    /// A string that must be an absolute path (`allowed` says what it names).
    public func absolutePath(
        _ table: TOMLTable,
        _ name: String,
        _ key: String,
        allowed: String = "an absolute path"
    ) throws -> String? {
        guard let text = try string(table, name, key) else { return nil }
        guard text.hasPrefix("/") else {
            throw ConfigError.badValue(path: path, key: name, value: quoted(text), allowed: allowed)
        }
        return text
    }

    public func bool(_ table: TOMLTable, _ name: String, _ key: String) throws -> Bool? {
        guard let value = table[key] else { return nil }
        guard let bool = value.bool else {
            throw ConfigError.badValue(path: path, key: name, value: "\(value)", allowed: "true or false")
        }
        return bool
    }

    /// A number (integer or not) within `range`.
    public func number(
        _ table: TOMLTable,
        _ name: String,
        _ key: String,
        in range: ClosedRange<Double>
    ) throws -> Double? {
        guard let value = table[key] else { return nil }
        guard let number = value.double ?? value.int.map(Double.init), range.contains(number) else {
            throw ConfigError.badValue(
                path: path,
                key: name,
                value: "\(value)",
                allowed: "a number from \(range.lowerBound) to \(range.upperBound)"
            )
        }
        return number
    }

    /// One of a fixed set of names.
    public func choice<Choice: RawRepresentable & CaseIterable>(
        _ table: TOMLTable,
        _ name: String,
        _ key: String,
        as: Choice.Type
    ) throws -> Choice? where Choice.RawValue == String {
        guard let text = try string(table, name, key) else { return nil }
        guard let choice = Choice(rawValue: text) else {
            throw ConfigError.badValue(path: path, key: name, value: quoted(text), allowed: Self.oneOf(Choice.self))
        }
        return choice
    }

    /// A list of names from a fixed set, each at most once.
    public func choices<Choice: RawRepresentable & CaseIterable & Equatable>(
        _ table: TOMLTable,
        _ name: String,
        _ key: String,
        as: Choice.Type
    ) throws -> [Choice]? where Choice.RawValue == String {
        guard let value = table[key] else { return nil }
        guard let array = value.array else {
            throw ConfigError.badValue(
                path: path,
                key: name,
                value: "\(value)",
                allowed: "a list of " + Self.oneOf(Choice.self)
            )
        }
        var chosen: [Choice] = []
        for element in array {
            guard let text = element.string, let choice = Choice(rawValue: text), !chosen.contains(choice) else {
                throw ConfigError.badValue(
                    path: path,
                    key: name,
                    value: "\(element)",
                    allowed: "each of " + Self.oneOf(Choice.self) + " at most once"
                )
            }
            chosen.append(choice)
        }
        return chosen
    }

    private static func oneOf<Choice: RawRepresentable & CaseIterable>(_: Choice.Type) -> String
    where Choice.RawValue == String {
        "one of " + Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
    }

    /// `[log] level`, which both programs take: one of swift-log's level names.
    public func logLevel(_ root: TOMLTable) throws -> String? {
        guard let log = try table(root, "log") else { return nil }
        try checkKeys(log, prefix: "log.", allowed: ["level"])
        guard let level = try string(log, "log.level", "level") else { return nil }
        let levels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
        guard levels.contains(level) else {
            throw ConfigError.badValue(
                path: path,
                key: "log.level",
                value: quoted(level),
                allowed: "one of " + levels.joined(separator: ", ")
            )
        }
        return level
    }

    public static func parseDuration(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        guard let unit = text.last, let scale = units[unit], let number = Double(text.dropLast()), number >= 0 else {
            return nil
        }
        return number * scale
    }

    public func quoted(_ text: String) -> String { "\"\(text)\"" }
}
