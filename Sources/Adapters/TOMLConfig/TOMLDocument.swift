import CAssertGuard
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
        let parse = GuardedParse(text: text)
        var message = [CChar](repeating: 0, count: 512)
        let asserted = withExtendedLifetime(parse) {
            wb_run_guarded(
                { context in
                    let parse = Unmanaged<GuardedParse>.fromOpaque(context!).takeUnretainedValue()
                    parse.run()
                },
                Unmanaged.passUnretained(parse).toOpaque(),
                &message,
                message.count
            )
        }
        guard asserted == 0, let result = parse.result else {
            // toml++ stopped on one of its own checks: it cannot say where, only that the text is
            // not a document it can read.
            let check = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ConfigError.unparsable(path: path, reason: "the TOML reader gave up on it (\(check))")
        }
        switch result {
        case .success(let table):
            return table
        case .failure(let error as TOMLParseError):
            throw ConfigError.syntax(
                path: path,
                line: error.source.begin.line,
                column: error.source.begin.column,
                reason: error.description
            )
        case .failure(let error):
            throw ConfigError.unparsable(path: path, reason: "\(error)")
        }
    }
}

/// One parse by TOMLKit, run inside `wb_run_guarded` so that a toml++ assertion comes back as a
/// failed parse; a class, so the C callback reaches it through one pointer.
private final class GuardedParse {
    let text: String
    var result: Result<TOMLTable, any Error>?

    init(text: String) { self.text = text }

    func run() { result = Result { try TOMLTable(string: text) } }
}
