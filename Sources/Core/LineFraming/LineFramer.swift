/// Splits a byte stream into lines, apart from whoever reads the bytes: gpsd's JSON, the control
/// socket's requests, any line protocol.
///
/// A line longer than `maxLineLength` is never buffered whole: its bytes are dropped as they come
/// and reported once as `.oversized`, so a hostile or broken stream cannot grow memory.
public struct LineFramer: Sendable {
    public enum Frame: Sendable, Equatable {
        /// One line without its terminator (`\n` or `\r\n`); empty lines are reported too, so
        /// that line numbers in diagnostics are right.
        case line([UInt8])
        /// A line that exceeded the limit; `byteCount` bytes were dropped.
        case oversized(byteCount: Int)
    }

    /// gpsd's own longest message is a few kilobytes; 64 KiB leaves room for any future class.
    public static let defaultMaxLineLength = 64 * 1024

    public let maxLineLength: Int
    private var buffer: [UInt8] = []
    private var readIndex = 0
    private var scanIndex = 0
    private var discarded: Int?

    public init(maxLineLength: Int = LineFramer.defaultMaxLineLength) {
        precondition(maxLineLength > 0)
        self.maxLineLength = maxLineLength
    }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if readIndex > 0 && readIndex * 2 >= buffer.count {
            buffer.removeSubrange(0..<readIndex)
            scanIndex -= readIndex
            readIndex = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, or nil when more bytes are needed.
    public mutating func next() -> Frame? {
        guard let newline = buffer[scanIndex...].firstIndex(of: UInt8(ascii: "\n")) else {
            scanIndex = buffer.count
            if discarded != nil || buffer.count - readIndex > maxLineLength {
                discarded = (discarded ?? 0) + buffer.count - readIndex
                buffer.removeAll(keepingCapacity: true)
                readIndex = 0
                scanIndex = 0
            }
            return nil
        }
        let start = readIndex
        readIndex = newline + 1
        scanIndex = readIndex
        if let dropped = discarded {
            discarded = nil
            return .oversized(byteCount: dropped + newline - start)
        }
        return frame(start..<newline)
    }

    /// Whatever remains once the stream has ended: a last line without a newline.
    public mutating func finish() -> Frame? {
        defer {
            buffer.removeAll()
            readIndex = 0
            scanIndex = 0
            discarded = nil
        }
        if let dropped = discarded { return .oversized(byteCount: dropped + buffer.count - readIndex) }
        guard readIndex < buffer.count else { return nil }
        return frame(readIndex..<buffer.count)
    }

    private func frame(_ range: Range<Int>) -> Frame {
        var end = range.upperBound
        if end > range.lowerBound && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        if end - range.lowerBound > maxLineLength { return .oversized(byteCount: end - range.lowerBound) }
        return .line(Array(buffer[range.lowerBound..<end]))
    }
}
