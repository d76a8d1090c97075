import Foundation
import Logging

/// Keeps every log record in memory so tests can see what was reported, and where.
final class LogRecords: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [(level: Logger.Level, message: String, metadata: Logger.Metadata)] = []

    var all: [(level: Logger.Level, message: String, metadata: Logger.Metadata)] {
        lock.withLock { storage }
    }

    func append(_ level: Logger.Level, _ message: String, _ metadata: Logger.Metadata) {
        lock.withLock { storage.append((level, message, metadata)) }
    }

    func logger() -> Logger {
        Logger(label: "test") { _ in CapturingLogHandler(records: self) }
    }
}

struct CapturingLogHandler: LogHandler {
    let records: LogRecords
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        records.append(event.level, event.message.description, metadata.merging(event.metadata ?? [:]) { $1 })
    }
}
