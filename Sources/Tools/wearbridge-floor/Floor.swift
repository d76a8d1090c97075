import Foundation
import GRDB
import NIOCore
import NIOPosix

/// The stack's floor: the least a daemon built on this project's libraries (the static Swift
/// runtime, Foundation, SwiftNIO, GRDB over SQLite) must run to log gpsd's fixes durably, and
/// none of wearbridge's own code. The footprint bench runs it beside the daemon with the link and
/// cues off, so that a goal can be read against what the libraries cost before we add anything.
///
/// What it does is what the daemon's "off" configuration cannot do without: read gpsd's stream on
/// an event loop, decode each TPV line with Foundation's `JSONDecoder`, and commit the second's
/// fixes in one durable transaction (WAL, `synchronous = FULL`). No filter, no session, no journal.
@main
struct Floor {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 4, let port = Int(arguments[2]) else {
            FileHandle.standardError.write(Data("usage: wearbridge-floor HOST PORT DATABASE\n".utf8))
            exit(64)
        }
        var configuration = Configuration()
        configuration.journalMode = .wal
        let pool = try DatabasePool(path: arguments[3], configuration: configuration)
        try await pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(
                sql: "CREATE TABLE IF NOT EXISTS fix (t REAL, lat REAL, lon REAL, speed REAL, track REAL, eph REAL)"
            )
        }
        let (stream, continuation) = AsyncStream.makeStream(of: Report.self)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Lines(continuation))
                }
            }
            .connect(host: arguments[1], port: port).get()
        channel.writeAndFlush(ByteBuffer(string: #"?WATCH={"enable":true,"json":true};"# + "\n"), promise: nil)
        var batch: [Report] = []
        var last = ContinuousClock.now
        for await report in stream {
            batch.append(report)
            let now = ContinuousClock.now
            guard now - last >= .seconds(1) else { continue }
            let rows = batch
            batch.removeAll(keepingCapacity: true)
            last = now
            try await pool.write { db in
                for row in rows {
                    try db.cachedStatement(sql: "INSERT INTO fix VALUES (?, ?, ?, ?, ?, ?)")
                        .execute(arguments: [row.time, row.lat, row.lon, row.speed, row.track, row.eph])
                }
            }
        }
    }
}

/// gpsd's report, as much of it as a distance needs.
struct Report: Decodable, Sendable {
    var `class`: String
    var time: String?
    var lat: Double?
    var lon: Double?
    var speed: Double?
    var track: Double?
    var eph: Double?
}

/// Splits gpsd's stream into lines and hands on the TPV reports.
final class Lines: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    private let continuation: AsyncStream<Report>.Continuation
    private var pending = ByteBuffer()
    private let decoder = JSONDecoder()
    /// gpsd's fixed opening of a TPV line: the other classes are not decoded.
    private static let tpv = Array(#"{"class":"TPV""#.utf8)

    init(_ continuation: AsyncStream<Report>.Continuation) {
        self.continuation = continuation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        pending.writeBuffer(&buffer)
        while let newline = pending.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
            let line = pending.readBytes(length: newline - pending.readerIndex + 1) ?? []
            guard line.starts(with: Self.tpv),
                let report = try? decoder.decode(Report.self, from: Data(line))
            else { continue }
            continuation.yield(report)
        }
        pending.discardReadBytes()
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish()
    }
}
