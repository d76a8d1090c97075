import Foundation
import TOMLKit

/// A configuration file's text as a TOML table: the one place both programs read a file and turn a
/// syntax error into a `ConfigError` with its line and column.
public enum TOMLDocument {
    /// Reads and parses the file at `path`; a missing file is an error (the caller decides about defaults).
    public static func load(path: String) throws -> TOMLTable {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigError.unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        return try parse(text, path: path)
    }

    /// Parses `text`, naming `path` in any error.
    public static func parse(_ text: String, path: String) throws -> TOMLTable {
        if let at = TableHeaderCheck.firstHeaderWithoutKey(in: text) {
            throw ConfigError.syntax(
                path: path,
                line: at.line,
                column: at.column,
                reason: "a table header must begin with a key (a bare key or a quoted one)"
            )
        }
        do {
            return try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError.syntax(
                path: path,
                line: error.source.begin.line,
                column: error.source.begin.column,
                reason: error.description
            )
        }
    }
}
