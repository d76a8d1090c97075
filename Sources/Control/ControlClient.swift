import Foundation
import LineFraming
import NIOCore
import NIOPosix

/// `wearbridge ctl`: one request, one reply, over the control socket.
public struct ControlClient: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public func send(_ request: ControlRequest) async throws -> ControlReply {
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(unixDomainSocketPath: path) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch let error as IOError where error.errnoCode == 2 || error.errnoCode == 111 {
            throw ControlSocketError.notRunning(path: path)
        } catch {
            throw ControlSocketError.connection(path: path, reason: "\(error)")
        }
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(bytes: ControlCodec.encode(request)))
            var framer = LineFramer(maxLineLength: 1 << 20)
            for try await buffer in inbound {
                framer.append(buffer.readableBytesView)
                if case .line(let line)? = framer.next() {
                    do {
                        return try JSONDecoder().decode(ControlReply.self, from: Data(line))
                    } catch {
                        throw ControlSocketError.connection(path: path, reason: "unreadable reply: \(error)")
                    }
                }
            }
            throw ControlSocketError.noReply(path: path)
        }
    }
}
