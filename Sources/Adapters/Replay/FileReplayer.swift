import Foundation
import Logging
import TrackCore

/// Replays a recorded file (what `gpspipe -w` writes), streaming it in chunks so memory stays flat.
public struct FileReplayer {
    public var activity: Activity
    public var profile: ActivityProfile?
    public var logger: Logger
    public var chunkSize = 64 * 1024

    public init(activity: Activity, profile: ActivityProfile? = nil, logger: Logger) {
        self.activity = activity
        self.profile = profile
        self.logger = logger
    }

    public func replay(
        path: String,
        observer: ((Fix, FixOutcome, TrackSession) -> Void)? = nil
    ) throws(ReplayError) -> ReplayReport {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        } catch {
            throw ReplayError(file: path, reason: Self.reason(error, fallback: "cannot open"))
        }
        defer { try? handle.close() }
        var replayer = StreamReplayer(
            name: path,
            session: TrackSession(activity: activity, profile: profile),
            logger: logger
        )
        replayer.observer = observer
        while true {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: chunkSize)
            } catch {
                throw ReplayError(file: path, reason: Self.reason(error, fallback: "cannot read"))
            }
            guard let chunk, !chunk.isEmpty else { break }
            replayer.consume(chunk)
        }
        return replayer.finish()
    }

    /// A recording's fixes as the core merged them, each "received" at its own GPS time: inputs
    /// for the session logic without a live clock (`wearbridge cues`, `make-session`).
    public func timedFixes(path: String) throws(ReplayError) -> [Fix] {
        var fixes: [Fix] = []
        _ = try replay(path: path) { fix, _, _ in
            var timed = fix
            timed.receivedAt = fix.time?.seconds
            fixes.append(timed)
        }
        return fixes
    }

    private static func reason(_ error: any Error, fallback: String) -> String {
        let ns = error as NSError
        if let posix = ns.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return "\(fallback): \(String(cString: strerror(Int32(posix.code))))"
        }
        if ns.domain == NSPOSIXErrorDomain { return "\(fallback): \(String(cString: strerror(Int32(ns.code))))" }
        if ns.domain == NSCocoaErrorDomain && ns.code == NSFileReadNoSuchFileError { return "no such file" }
        return "\(fallback): \(ns.localizedDescription)"
    }
}
