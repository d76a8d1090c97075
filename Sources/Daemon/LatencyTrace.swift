import Foundation

/// `run --latency-trace FILE`: one line per fix entering the core, "epoch monotonic-seconds", for
/// the latency benchmark, which stamps the same epochs as gpsd writes them.
final class LatencyTrace: @unchecked Sendable {
    private let handle: FileHandle
    private var buffer = ""

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    /// Called from the engine's task only.
    func record(epoch: Double, ingestedAt: Double) {
        buffer += String(format: "%.3f %.6f\n", epoch, ingestedAt)
        if buffer.utf8.count > 4096 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        handle.write(Data(buffer.utf8))
        buffer = ""
    }
}
