import Engine
import Foundation
import Harness
import PhoneLinkContract
import PhoneLinkMessages
import PhoneServer
import RaceStore
import SessionCore
import SpeedSensors
import Store
import Testing
import TrackCore

/// The outbox in a real SQLite file: with its causes in one transaction, snapshots coalesced,
/// notices bounded and counted, delivery marked by the phone's acks; and the phone's inbox
/// taking each message once.
@Suite("Phone link: outbox and inbox on disk")
struct OutboxStoreTests {
    private func directory() throws -> String { try temporaryDirectory("outbox") }

    private let started = LinkMessage.started(
        sessionID: "685330d3-b4ce-489e-980f-696cef78dabe",
        activity: .running,
        startedAt: TimeAnchor(source: .gps, seconds: 1_750_000_000)
    )

    private func snapshot(_ distance: Double) -> LogRow {
        .outbox(.snapshot(LinkSnapshot(sessionID: nil, state: .active, distance: distance)), createdAt: 1)
    }

    @Test func snapshotsAreCoalescedAndCriticalMessagesKeptInOrder() async throws {
        let log = try SessionLog.open(directory: try directory())
        try await log.write(
            WriteBatch(
                id: 1,
                rows: [
                    .session(
                        .begin(
                            sessionID: "685330d3-b4ce-489e-980f-696cef78dabe",
                            activity: .running,
                            startedAt: .init(source: .gps, seconds: 1)
                        )
                    ),
                    .outbox(started, createdAt: 1), snapshot(1), snapshot(2), snapshot(3),
                ]
            )
        )
        let all = try log.outbox()
        #expect(all.map(\.kind.rawValue) == ["session_started", "snapshot"])
        #expect(all.map(\.seq) == [1, 4], "sequence numbers are never reused: \(all.map(\.seq))")
        #expect(try log.outboxHead() == 4)
        #expect(try log.outboxMessages(after: 0, limit: 10).map(\.seq) == [1])
        #expect(try log.newestSnapshot()?.seq == 4)
        try await log.markDelivered(through: 1, snapshot: 4, at: 5)
        #expect(try log.outboxDepth().pending == 0)
        #expect(try log.outbox().allSatisfy { $0.state == .delivered && $0.deliveredAt == 5 })
        #expect(try log.pragmas().synchronous == 2, "the mark is committed unsynced; the batches after it are FULL")
    }

    @Test func noticesPastTheBoundEvictTheOldestAndAreCounted() async throws {
        let log = try SessionLog.open(directory: try directory())
        let notice = LogRow.outbox(.notice(sessionID: nil, LinkNotice(.gpsLost, detail: "x")), createdAt: 1)
        let rows = Array(repeating: notice, count: SessionLog.noticeBound + 5) + [.outbox(started, createdAt: 2)]
        try await log.write(WriteBatch(id: 1, rows: rows))
        let depth = try log.outboxDepth()
        #expect(depth.noticesEvicted == 5)
        #expect(depth.pending == SessionLog.noticeBound + 1)
        let kept = try log.outboxMessages(after: 0, limit: 5)
        #expect(kept.first?.seq == 6, "the oldest five went first")
        #expect(try log.outboxMessages(after: 0, limit: 2000).last?.kind == .sessionStarted)
    }

    @Test func aFailedTransactionLeavesNoMessageWithoutItsCause() async throws {
        let log = try SessionLog.open(directory: try directory())
        // The second row breaks the transaction (a fix of a session that does not exist).
        let fix = Fix(mode: 3, time: GPSTime(seconds: 1), position: GeoPoint(latitude: 1, longitude: 1))
        await #expect(throws: StorageFailure.self) {
            try await log.write(
                WriteBatch(
                    id: 1,
                    rows: [
                        .outbox(started, createdAt: 1),
                        .session(.fix(sessionID: "missing", seq: 1, fix, .rejected(.noFix))),
                    ]
                )
            )
        }
        #expect(try log.outbox().isEmpty, "the message went with its failed batch")
    }

    @Test func theInboxTakesEachMessageOnceAndAnswersTheCommandWithItsReply() async throws {
        let inbox = try Inbox.open(directory: try directory(), parts: [RaceStore.self])
        func message(_ seq: Int, _ kind: MessageKind = .split, answer: CommandAnswer? = nil) -> InboxMessage {
            InboxMessage(
                wearable: "pi",
                epoch: "e1",
                seq: seq,
                messageClass: .critical,
                kind: kind,
                session: nil,
                payload: Data(),
                createdAtMs: 0,
                receivedAt: 1,
                answer: answer
            )
        }
        #expect(try await inbox.link.commit(message(3)))
        #expect(try await !inbox.link.commit(message(3)), "a resend is dropped")
        #expect(try await !inbox.link.commit(message(2)), "an older seq is dropped")
        #expect(try inbox.link.mark(wearable: "pi", epoch: "e1").mark == 3)
        #expect(try inbox.link.mark(wearable: "pi", epoch: "e2").mark == 0, "a new epoch starts over")
        try await inbox.commands.queue(
            QueuedCommand(
                id: "c1",
                wearable: "pi",
                kind: .pause,
                activity: nil,
                issuedAt: 0,
                validFor: 60,
                deadline: 99
            )
        )
        #expect(try inbox.commands.pending().map(\.id) == ["c1"])
        let answer = CommandAnswer(id: "c1", outcome: .fail(.notActive), message: "no session is active", session: nil)
        #expect(try await inbox.link.commit(message(4, .commandReply, answer: answer)))
        #expect(try inbox.commands.standing("c1")?.answer == answer)
        #expect(try inbox.commands.pending().isEmpty)
        #expect(try inbox.link.entries().map(\.seq) == [3, 4])
    }

    @Test func sessionsAreListedByTheLastOfTheirStartPausesResumesAndEnd() async throws {
        let inbox = try Inbox.open(directory: try directory(), parts: [RaceStore.self])
        let kinds: [(String, MessageKind)] = [
            ("s1", .sessionStarted), ("s1", .split), ("s1", .sessionPaused), ("s1", .split), ("s2", .split),
            ("s1", .strapBattery),
        ]
        for (offset, (session, kind)) in kinds.enumerated() {
            let stored = try await inbox.link.commit(
                InboxMessage(
                    wearable: "pi",
                    epoch: "e1",
                    seq: offset + 1,
                    messageClass: .critical,
                    kind: kind,
                    session: session,
                    payload: Data(),
                    createdAtMs: Int64(1000 * (offset + 1)),
                    receivedAt: Double(offset + 1)
                )
            )
            #expect(stored)
        }
        let listed = try inbox.sessions.list()
        #expect(listed.map(\.session) == ["s1", "s2"], "newest first")
        #expect(listed.first?.state == .sessionPaused, "a split or a notice after the pause does not change it")
        #expect(listed.first?.startedAtMs == 1000)
        #expect(listed.first?.messages == 5)
        #expect(listed.last?.state == nil, "no start, pause, resume or end delivered")
        #expect(listed.last?.startedAtMs == nil)
        #expect(try inbox.link.sessionEnded("s1") == false)
    }
}

/// Backfill on disk: the wearable's rows after a cursor in order; the phone keeping each chunk
/// with its cursor, ignoring answers to requests it did not make.
@Suite("Phone link: backfill on disk")
struct BackfillStoreTests {
    private func directory() throws -> String { try temporaryDirectory("backfill") }

    @Test func rowsComeInSequenceOrderAcrossTablesAndTheLastChunkSaysDone() async throws {
        let log = try SessionLog.open(directory: try directory())
        let id = "685330d3-b4ce-489e-980f-696cef78dabe"
        var rows: [SessionRow] = [.begin(sessionID: id, activity: .running, startedAt: .init(source: .gps, seconds: 1))]
        for seq in 1...7 {
            let fix = Fix(mode: 3, time: GPSTime(seconds: Double(seq)), position: GeoPoint(latitude: 48, longitude: 11))
            rows.append(.fix(sessionID: id, seq: seq, fix, .rejected(.noFix)))
        }
        rows.append(
            .event(seq: 8, Announcement(.paused, sessionID: id, time: GPSTime(seconds: 8), receivedAt: 8))
        )
        try await log.write(WriteBatch(id: 1, rows: rows.map(LogRow.session)))
        let first = try #require(try log.backfillChunk(session: id, after: 0, limit: 5))
        #expect(first.rows.map(\.seq) == [1, 2, 3, 4, 5] && !first.done)
        let rest = try #require(try log.backfillChunk(session: id, after: 5, limit: 5))
        #expect(rest.rows.map(\.seq) == [6, 7, 8] && rest.done)
        #expect(rest.rows.last?.event.kind == "paused")
        #expect(rest.distanceSource == "gps" && rest.strideFactorsJson.isEmpty && rest.afterSeq == 5)
        #expect(try log.backfillChunk(session: "nope", after: 0, limit: 5) == nil)
    }

    @Test func thePhoneKeepsEachChunkWithItsCursorAndOnlyWhatItAskedFor() async throws {
        let inbox = try Inbox.open(directory: try directory(), parts: [RaceStore.self])
        try await inbox.backfill.request(wearable: "pi", session: "s", at: 1)
        func chunk(after: UInt64, _ seqs: [UInt64], done: Bool) -> Wearbridge_Link_V1_BackfillChunk {
            .with {
                $0.session = "s"
                $0.afterSeq = after
                $0.rows = seqs.map { seq in
                    .with {
                        $0.seq = seq
                        $0.fix = .with { $0.verdict = "accepted" }
                    }
                }
                $0.done = done
            }
        }
        #expect(try await inbox.backfill.commit(chunk(after: 0, [1, 2, 3], done: false), wearable: "pi") == 3)
        // An answer to an older request (a resend after a reconnect) is not kept twice.
        #expect(try await inbox.backfill.commit(chunk(after: 0, [1, 2, 3], done: false), wearable: "pi") == 0)
        #expect(try await inbox.backfill.commit(chunk(after: 3, [4, 5], done: true), wearable: "pi") == 2)
        let state = try #require(try inbox.backfill.state(session: "s"))
        #expect(state.state == .complete && state.throughSeq == 5 && state.rows == 5)
        #expect(try inbox.backfill.counts(session: "s") == ["fix": 5])
    }
}

/// An indoor session's copy on the phone: the footpod's or the pedometer's readings (its steps and
/// stillness), its distance source and factors come across, so the phone replays (and exports)
/// the same session as the wearable.
@Suite("Phone link: an indoor session's backfill")
struct IndoorBackfillTests {
    @Test(arguments: [DistanceSource.footpod, .steps])
    func thePhonesCopyReplaysTheSameInputsWithTheSameSourceAndFactors(source: DistanceSource) async throws {
        let factors = StrideFactors(edges: [3.2], factors: [0.95, 0.93])
        var controller = SessionController(
            configuration: .init(indoorSource: source, footpodFactors: factors),
            ids: SessionIDGenerator(seed: 7)
        )
        var output = SessionOutput()
        _ = controller.handle(.start, id: "c1", indoor: true, receivedAt: 100, systemTime: 1_750_000_000, into: &output)
        for k in 0..<240 {
            // A footpod speeding up through both pace bands, with and without cadence.
            let speed = 2.8 + Double(k) / 300
            // The pedometer's count and its stillness, standing 5 s in every 40.
            let still = k % 40 >= 35
            controller.speed(
                SpeedSensorSample(
                    source: source,
                    reading: SpeedSample(
                        speed: source == .steps && still ? 0 : speed,
                        cadence: k % 7 == 0 ? nil : 168 + k % 5,
                        totalDistance: 3 * Double(k),
                        steps: source == .steps ? 3 * k : nil,
                        still: source == .steps ? still : nil
                    ),
                    receivedAt: 100.25 + Double(k),
                    payload: [0x03, UInt8(k % 256)]
                ),
                into: &output
            )
        }
        _ = controller.handle(.end, id: "c2", receivedAt: 400, systemTime: 1_750_000_300, into: &output)
        let log = try SessionLog.open(directory: try temporaryDirectory("indoor-wearable"))
        try await log.write(WriteBatch(id: 1, rows: output.rows.map(LogRow.session)))
        guard case .begin(let id, _, _, _, _, _)? = output.rows.first,
            let started = output.rows.first.flatMap({ LinkMessage(reporting: $0) })
        else {
            Issue.record("no begin row: \(output.rows.prefix(2))")
            return
        }

        let inbox = try Inbox.open(directory: try temporaryDirectory("indoor-phone"), parts: [RaceStore.self])
        let startedMessage = InboxMessage(
            wearable: "pi",
            epoch: "e1",
            seq: 1,
            messageClass: .critical,
            kind: .sessionStarted,
            session: id,
            payload: try started.payload.serializedBytes(),
            createdAtMs: 0,
            receivedAt: 1,
            answer: nil
        )
        #expect(try await inbox.link.commit(startedMessage))
        try await inbox.backfill.request(wearable: "pi", session: id, at: 2)
        var after = 0
        while true {
            let chunk = try #require(try log.backfillChunk(session: id, after: after, limit: 50))
            #expect(chunk.distanceSource == source.rawValue && !chunk.strideFactorsJson.isEmpty)
            try await inbox.backfill.commit(chunk, wearable: "pi")
            after = Int(chunk.rows.last?.seq ?? UInt64(after))
            if chunk.done { break }
        }
        #expect(try inbox.backfill.state(session: id)?.state == .complete)
        #expect(try inbox.backfill.counts(session: id)["speed"] == 240)

        let start = try #require(try inbox.sessions.start(id))
        #expect(start.distanceSource == source && start.footpodFactors == factors)
        var wearable: [SessionController.JournalEntry] = []
        var wearableTimes: [Double?] = []
        try log.streamJournal(of: id) {
            wearable.append($0.entry)
            wearableTimes.append($0.time)
        }
        var phone: [SessionController.JournalEntry] = []
        var phoneTimes: [Double?] = []
        try inbox.sessions.journal(session: id) {
            phone.append($0)
            phoneTimes.append($1)
        }
        #expect(wearable.count > 240)
        #expect(phone == wearable, "the phone's journal differs from the wearable's")
        #expect(phoneTimes == wearableTimes)
        if source == .steps {
            let stepped = phone.compactMap { if case .speed(let sample) = $0 { sample.reading.steps } else { nil } }
            #expect(stepped.count == 240, "the steps on the phone: \(stepped.count)")
        }
    }
}
