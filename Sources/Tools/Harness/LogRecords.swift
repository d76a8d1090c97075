import Foundation
import Logging

/// Keeps every log record in memory so tests can see what was reported, and where.
public final class LogRecords: @unchecked Sendable {
    public init() {}

    private let lock = NSLock()
    private var storage: [(level: Logger.Level, message: String, metadata: Logger.Metadata)] = []

    public var all: [(level: Logger.Level, message: String, metadata: Logger.Metadata)] {
        lock.withLock { storage }
    }

    public func append(_ level: Logger.Level, _ message: String, _ metadata: Logger.Metadata) {
        lock.withLock { storage.append((level, message, metadata)) }
    }

    public func logger() -> Logger {
        Logger(label: "test") { _ in CapturingLogHandler(records: self) }
    }
}

public struct CapturingLogHandler: LogHandler {
    let records: LogRecords
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .trace

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        records.append(event.level, event.message.description, metadata.merging(event.metadata ?? [:]) { $1 })
    }
}

extension LogRecords {
    /// Records whose message is `message`.
    public func with(_ message: String) -> [(level: Logger.Level, message: String, metadata: Logger.Metadata)] {
        all.filter { $0.message == message }
    }
}
