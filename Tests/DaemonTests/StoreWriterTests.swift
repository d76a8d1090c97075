import Engine
import Foundation
import Harness
import Logging
import SessionCore
import SyntheticReceivers
import Testing
import TrackCore

@testable import Daemon
@testable import Store

/// Collects what the writer reports, in order.
private final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [StoreReport] = []
    func append(_ report: StoreReport) { lock.withLock { reports.append(report) } }
    var all: [StoreReport] { lock.withLock { reports } }
}

/// The store's writer against a real SQLite file that fills up (`max_page_count`): every request
/// answered in order, a failed batch reported as full and leaving nothing behind, the same rows
/// committed once there is room, look-ups answered beside it, and failures not logged at each try.
@Suite("Store writer")
struct StoreWriterTests {
    private func fix(_ i: Int) -> Fix { loggedFix(i) }

    @Test func aFullDiskIsReportedInOrderAndTheSameRowsGoInOnceThereIsRoom() async throws {
        let directory = try temporaryDirectory("writer")
        let log = try SessionLog.open(directory: directory)
        let records = LogRecords()
        let writer = StoreWriter(log: log, logger: records.logger(), warnEvery: 0.2)
        let (requests, send) = AsyncStream.makeStream(of: StoreRequest.self)
        let reports = Reports()
        let start = CommandReply(
            commandID: "s",
            command: .start,
            accepted: true,
            message: "session started",
            sessionID: "w",
            state: .active
        )
        let fixes: [LogRow] = (0..<3000).map {
            .session(.fix(sessionID: "w", seq: $0 + 2, fix($0), .accepted(smoothed: fix($0).position!)))
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await writer.run(requests) { reports.append($0) } }
            send.yield(
                .write(
                    WriteBatch(
                        id: 1,
                        rows: [
                            .session(
                                .begin(
                                    sessionID: "w",
                                    activity: .running,
                                    startedAt: TimeAnchor(source: .gps, seconds: 1)
                                )
                            ),
                            .session(.command(sessionID: "w", seq: 1, start, receivedAt: 1)),
                        ]
                    )
                )
            )
            #expect(await eventually(timeout: 30) { reports.all.count == 1 })
            let pages = try await log.writer!.write { db in try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0 }
            try await log.writer!.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA max_page_count = \(pages)")
            }
            send.yield(.write(WriteBatch(id: 2, rows: fixes)))
            send.yield(.lookUp(commandID: "s"))
            // The second failure comes past `warnEvery` after the first, however slow a loaded
            // machine makes the first.
            #expect(await eventually(timeout: 30) { reports.all.count == 3 })
            try await Task.sleep(for: .milliseconds(300))
            send.yield(.write(WriteBatch(id: 3, rows: fixes)))
            #expect(await eventually(timeout: 30) { reports.all.count == 4 })
            try await log.writer!.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA max_page_count = 1000000")
            }
            send.yield(.write(WriteBatch(id: 4, rows: fixes)))
            send.yield(.close)
            try await group.waitForAll()
        }
        let all = reports.all
        try #require(all.count == 6, "\(all)")
        #expect(all[0] == .committed(batch: 1))
        guard case .failed(2, let failure) = all[1] else {
            Issue.record("batch 2 not reported failed: \(all[1])")
            return
        }
        #expect(failure.kind == .full && failure.message.contains(log.path), "\(failure)")
        #expect(all[2] == .lookedUp(commandID: "s", .success(start)), "read beside a failing writer")
        #expect(all[3] == .failed(batch: 3, failure))
        #expect(all[4] == .committed(batch: 4) && all[5] == .closed)
        #expect(try log.journal(of: "w").entries.count == 3001, "the rows once, all of them")
        // The first failure at debug (the engine's loop says it once, as an error); later ones as a
        // warning only every `warnEvery`; never an error per attempt from here.
        #expect(records.with("commit failed").count == 1)
        #expect(records.with("the data log still cannot be written").count == 1)
        #expect(!records.all.contains { $0.level == .error })
    }
}
