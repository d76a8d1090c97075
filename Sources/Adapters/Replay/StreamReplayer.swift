import GPSD
import LineFraming
import Logging
import TrackCore

/// Runs a gpsd JSON stream through a `TrackSession`, exactly as the daemon will feed it live.
///
/// A line that is not gpsd JSON is logged with its number, counted, and skipped; the replay goes on.
/// Past `maxLoggedMalformed` lines per stream only the count grows, so a binary file cannot
/// flood the log.
public struct StreamReplayer {
    public var session: TrackSession
    public private(set) var lines = 0
    public private(set) var malformedLines = 0
    public private(set) var messages: [String: Int] = [:]
    public let name: String
    private var framer = LineFramer()
    private var merger = EpochMerger()
    private let decoder = GPSDDecoder()
    private let logger: Logger
    private let maxLoggedMalformed = 50
    /// Called with every decoded fix and the core's verdict on it (`replay --trace`).
    public var observer: ((Fix, FixOutcome, TrackSession) -> Void)?

    public init(name: String, session: TrackSession, logger: Logger) {
        self.name = name
        self.session = session
        self.logger = logger
    }

    public mutating func consume(_ bytes: some Sequence<UInt8>) {
        framer.append(bytes)
        while let frame = framer.next() { handle(frame) }
    }

    /// Ends the stream: a last line without newline is still decoded.
    public mutating func finish() -> ReplayReport {
        if let frame = framer.finish() { handle(frame) }
        if let fix = merger.flush() { ingest(fix) }
        if malformedLines > maxLoggedMalformed {
            logger.warning(
                "more malformed lines than were logged",
                metadata: ["file": "\(name)", "malformed": "\(malformedLines)", "logged": "\(maxLoggedMalformed)"]
            )
        }
        return ReplayReport(
            file: name,
            summary: session.summary,
            lines: lines,
            malformedLines: malformedLines,
            mergedReports: merger.mergedCount,
            messages: messages,
            receiver: session.receiverJudgement
        )
    }

    private mutating func handle(_ frame: LineFramer.Frame) {
        lines += 1
        switch frame {
        case .oversized(let count):
            malformed("line longer than \(framer.maxLineLength) bytes (\(count) bytes dropped)")
        case .line(let bytes):
            guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return }
            do {
                let message = try decoder.decode(bytes)
                switch message {
                case .tpv(let tpv):
                    messages["TPV", default: 0] += 1
                    var merger = self.merger
                    merger.add(tpv.fix()) { ingest($0) }
                    self.merger = merger
                case .sky: messages["SKY", default: 0] += 1
                case .version: messages["VERSION", default: 0] += 1
                case .error: messages["ERROR", default: 0] += 1
                case .device: messages["DEVICE", default: 0] += 1
                case .devices: messages["DEVICES", default: 0] += 1
                case .other(let className): messages[className, default: 0] += 1
                }
            } catch {
                malformed(error.description)
            }
        }
    }

    private mutating func ingest(_ fix: Fix) {
        let outcome = session.ingest(fix)
        observer?(fix, outcome, session)
    }

    private mutating func malformed(_ reason: String) {
        malformedLines += 1
        guard malformedLines <= maxLoggedMalformed else { return }
        logger.warning("malformed gpsd line", metadata: ["file": "\(name)", "line": "\(lines)", "error": "\(reason)"])
    }
}
