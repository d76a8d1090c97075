import GPSD
import LineFraming
import NIOCore
import ProcessClock

/// Reads gpsd's stream on the event loop itself: frames, filters and decodes each line there and
/// hands the engine only what it uses, so that a report costs one wake-up of the engine and no
/// hop through an intermediate task.
final class GPSDStreamHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    private let emit: @Sendable (GPSDLinkEvent) -> Void
    private let endpoint: String
    private var framer = LineFramer()
    private let decoder = GPSDDecoder()
    private var lines = 0
    /// Whether any report came through this connection (it then resets the backoff).
    private(set) var delivered = false
    /// Whether the receiver's last report had a fix (2D or 3D): SKY is skipped while it has.
    private var fixed = false

    init(endpoint: String, emit: @escaping @Sendable (GPSDLinkEvent) -> Void) {
        self.endpoint = endpoint
        self.emit = emit
    }

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(NIOAny(ByteBuffer(bytes: GPSDConnection.watch)), promise: nil)
        emit(.connected(endpoint: endpoint))
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let receivedAt = MonotonicClock.now()
        let buffer = unwrapInboundIn(data)
        framer.append(buffer.readableBytesView)
        while let frame = framer.next() {
            lines += 1
            switch frame {
            case .oversized(let count):
                emit(
                    .malformed(reason: "line longer than \(framer.maxLineLength) bytes (\(count) dropped)", line: lines)
                )
            case .line(let bytes):
                guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }),
                    !GPSDConnection.isIgnored(bytes, fixed: fixed)
                else {
                    continue
                }
                do {
                    let message = try decoder.decode(bytes)
                    if case .tpv(let tpv) = message { fixed = tpv.mode >= 2 }
                    delivered = true
                    emit(.message(message, receivedAt: receivedAt))
                } catch {
                    emit(.malformed(reason: error.description, line: lines))
                }
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
