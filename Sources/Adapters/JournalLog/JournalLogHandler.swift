import Foundation
import Logging
import UTCFormat

/// swift-log to stderr in a form journald keeps: a `<N>` syslog priority prefix that journald turns
/// into the entry's level (when `$JOURNAL_STREAM` says stderr is the journal), no colours, one line
/// per entry; by hand, a timestamp and the level name instead.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let toJournal: Bool

    public init(label: String, level: Logger.Level, environment: [String: String]) {
        self.label = label
        self.logLevel = level
        self.toJournal = environment["JOURNAL_STREAM"] != nil
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let text = fields.isEmpty ? "\(event.message)" : "\(event.message) \(fields)"
        let line: String
        if toJournal {
            line = "\(Self.priorityPrefix(event.level))\(text)\n"
        } else {
            let stamp = UTCTime.text(Date().timeIntervalSince1970.rounded(.down))
            line = "\(stamp) \(event.level) \(label): \(text)\n"
        }
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// sd-daemon(3) priority prefixes, which journald turns into the entry's level.
    public static func priorityPrefix(_ level: Logger.Level) -> String {
        switch level {
        case .trace, .debug: "<7>"
        case .info: "<6>"
        case .notice: "<5>"
        case .warning: "<4>"
        case .error: "<3>"
        case .critical: "<2>"
        }
    }
}
