import ControlProtocol
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

    /// One request and its reply; a daemon that does not answer within `timeout` is an error,
    /// never a client waiting forever.
    public func send(_ request: ControlRequest, timeout: Duration = .seconds(15)) async throws -> ControlReply {
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
        let path = self.path
        return try await withThrowingTaskGroup(of: ControlReply?.self) { group in
            group.addTask { try await Self.exchange(request, over: channel, path: path) }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let reply = try await group.next() ?? nil else {
                channel.channel.close(promise: nil)
                throw ControlSocketError.timedOut(path: path, after: timeout)
            }
            return reply
        }
    }

    private static func exchange(
        _ request: ControlRequest,
        over channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>,
        path: String
    ) async throws -> ControlReply {
        try await channel.executeThenClose { inbound, outbound in
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
