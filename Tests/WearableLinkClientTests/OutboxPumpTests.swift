import Engine
import Harness
import Logging
import PhoneLinkContract
import PhoneLinkMessages
import SessionCore
import Store
import Testing
import TrackCore

@testable import WearableLinkClient

/// The wearable's outbox pump against a real data log: what a welcome sends and in which order,
/// acks (also of what is already acknowledged), a connection cut and made again, and a phone that
/// acknowledges what was never sent.
@Suite("Phone link: the wearable's outbox pump")
struct OutboxPumpTests {
    private static let session = "685330d3-b4ce-489e-980f-696cef78dabe"

    /// An outbox of: started (1), snapshot (2), notice (3), split (4), snapshot (5).
    private func log() async throws -> SessionLog {
        let log = try SessionLog.open(directory: try temporaryDirectory("pump"))
        let split = Split(index: 1, distance: 1000, duration: 300, endTimer: 300)
        try await log.write(
            WriteBatch(
                id: 1,
                rows: [
                    .session(
                        .begin(sessionID: Self.session, activity: .running, startedAt: .init(source: .gps, seconds: 1))
                    ),
                    .outbox(
                        .started(
                            sessionID: Self.session,
                            activity: .running,
                            startedAt: .init(source: .gps, seconds: 1)
                        ),
                        createdAt: 1
                    ),
                    .outbox(
                        .snapshot(LinkSnapshot(sessionID: Self.session, state: .active, distance: 1)),
                        createdAt: 2
                    ),
                    .outbox(.notice(sessionID: Self.session, LinkNotice(.gpsLost, detail: "x")), createdAt: 3),
                    .outbox(.split(sessionID: Self.session, split), createdAt: 4),
                    .outbox(
                        .snapshot(LinkSnapshot(sessionID: Self.session, state: .active, distance: 2)),
                        createdAt: 5
                    ),
                ]
            )
        )
        return log
    }

    /// A pump whose envelopes are collected, as (seq, class).
    private final class Sent {
        var envelopes: [(seq: UInt64, snapshot: Bool)] = []
        var seqs: [UInt64] { envelopes.map(\.seq) }
    }

    private func pump(_ log: SessionLog, _ sent: Sent) throws -> OutboxPump {
        OutboxPump(store: log, head: try log.outboxHead(), heartbeatEvery: 2, logger: Logger(label: "test"), now: 0) {
            sent.envelopes.append(($0.envelope.seq, $0.envelope.class == .snapshot))
        }
    }

    @Test func aWelcomeSendsTheNewestSnapshotFirstThenEveryMessageAfterTheMarkInOrder() async throws {
        let log = try await log()
        let sent = Sent()
        var pump = try pump(log, sent)
        try await pump.handle(.welcome(mark: 0, snapshot: 0), now: 1, wallClock: 1)
        #expect(sent.seqs == [5, 1, 3, 4], "the coalesced snapshot, then critical and notice messages in seq order")
        #expect(sent.envelopes.map(\.snapshot) == [true, false, false, false])
    }

    @Test func anAckOfWhatIsAlreadyAcknowledgedChangesNothingAndSendsNothing() async throws {
        let log = try await log()
        let sent = Sent()
        var pump = try pump(log, sent)
        try await pump.handle(.welcome(mark: 0, snapshot: 0), now: 1, wallClock: 1)
        try await pump.handle(.ack(through: 3, snapshot: 5), now: 2, wallClock: 2)
        #expect(try log.outboxDepth().pending == 1, "seq 4 still waits")
        let before = sent.seqs
        try await pump.handle(.ack(through: 3, snapshot: 5), now: 3, wallClock: 3)
        try await pump.handle(.ack(through: 1, snapshot: 2), now: 4, wallClock: 4)
        #expect(sent.seqs == before, "a repeated or older ack sends nothing")
        #expect(pump.window.unacknowledged == 1)
        try await pump.handle(.ack(through: 4, snapshot: 5), now: 5, wallClock: 5)
        #expect(try log.outboxDepth().pending == 0)
    }

    @Test func afterACutTheNextConnectionResendsOnlyWhatThePhoneHasNotCommitted() async throws {
        let log = try await log()
        let first = Sent()
        var cut = try pump(log, first)
        try await cut.handle(.welcome(mark: 0, snapshot: 0), now: 1, wallClock: 1)
        try await cut.handle(.ack(through: 1, snapshot: 5), now: 2, wallClock: 2)
        // The connection dies with 3 and 4 in flight; the phone had committed 3 before it did.
        let second = Sent()
        var again = try pump(log, second)
        try await again.handle(.welcome(mark: 3, snapshot: 5), now: 3, wallClock: 3)
        #expect(second.seqs == [4], "neither the snapshot the phone holds nor seq 3 goes again")
        #expect(try log.outboxDepth().pending == 1, "the welcome's mark counts as delivered")
    }

    @Test func messagesWrittenWhileStreamingGoOutWhenTheOutboxGrows() async throws {
        let log = try await log()
        let sent = Sent()
        var pump = try pump(log, sent)
        try await pump.handle(.welcome(mark: 4, snapshot: 5), now: 1, wallClock: 1)
        #expect(sent.seqs.isEmpty)
        let notice = LinkNotice(.strapLost, detail: "silent")
        try await log.write(WriteBatch(id: 2, rows: [.outbox(.notice(sessionID: Self.session, notice), createdAt: 6)]))
        try await pump.handle(.outboxGrew, now: 2, wallClock: 2)
        #expect(sent.seqs == [6])
        try await pump.handle(.heartbeat, now: 3, wallClock: 3)
        #expect(sent.seqs == [6], "no heartbeat within heartbeatEvery of the last send")
        try await pump.handle(.heartbeat, now: 4.5, wallClock: 4.5)
        #expect(sent.seqs == [6, 5], "the newest snapshot again after a quiet heartbeatEvery")
    }

    @Test func anAckOfSomethingNeverSentEndsTheConnection() async throws {
        let log = try await log()
        var pump = try pump(log, Sent())
        try await pump.handle(.welcome(mark: 0, snapshot: 0), now: 1, wallClock: 1)
        await #expect(throws: LinkViolation.self) {
            try await pump.handle(.ack(through: 9, snapshot: 5), now: 2, wallClock: 2)
        }
        #expect(try log.outboxDepth().pending == 4, "nothing was marked delivered by the lie")
    }
}
