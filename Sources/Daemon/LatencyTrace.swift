import Foundation
import Synchronization

/// `run --latency-trace FILE`, for the latency benchmarks: "epoch monotonic-seconds" per fix entering
/// the core (stamped against gpsd's own output), and in a race "snapshot GPS-time wall-clock" per
/// snapshot committed for the phone and "partner GPS-time wall-clock" per partner snapshot taken in,
/// so that one wearable's commit is matched with its arrival on the other (same machine, one clock).
final class LatencyTrace: Sendable {
    private let handle: FileHandle
    private let buffer = Mutex("")

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    func record(epoch: Double, ingestedAt: Double) {
        append(String(format: "%.3f %.6f\n", epoch, ingestedAt))
    }

    /// A race's snapshot (`what`: snapshot or partner) with its GPS time, at wall-clock `at`.
    func record(_ what: String, gpsTime: Double, at: Double) {
        append(String(format: "%@ %.3f %.6f\n", what, gpsTime, at))
    }

    func flush() {
        let text = buffer.withLock { text in
            defer { text = "" }
            return text
        }
        guard !text.isEmpty else { return }
        handle.write(Data(text.utf8))
    }

    private func append(_ line: String) {
        let full = buffer.withLock { text in
            text += line
            return text.utf8.count > 4096
        }
        if full { flush() }
    }
}
