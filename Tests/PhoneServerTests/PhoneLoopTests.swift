import Harness
import Logging
import PhoneCore
import PhoneLinkContract
import ProcessClock
import RaceStore
import SessionCore
import Synchronization
import Testing
import TrackCore

@testable import PhoneServer

/// The phone's loop against a real inbox, driven as the server drives it (streams' hellos and
/// messages, ticks) on a clock the test sets: commands go out in the order they were issued, typed
/// on the wire, to a connected wearable only; again with the same id after a reconnection; the
/// wearable's reply through the outbox stops the resends; a reply for an id nobody asked about is
/// harmless; the deadline settles a command as not answered; once the loop stops nobody waits.
@Suite("Phone link: the phone's loop")
struct PhoneLoopTests {
    private final class Rig: Sendable {
        let inbox: Inbox
        let inputs = PhoneInputs()
        let time = Mutex(0.0)

        init() throws {
            inbox = try Inbox.open(directory: try temporaryDirectory("loop"), parts: [RaceStore.self])
        }

        /// Runs the loop while `body` drives it.
        func run(_ body: @Sendable (Rig) async throws -> Void) async throws {
            let loop = PhoneLoop(
                core: PhoneCore(retryEvery: 8),
                inbox: inbox,
                races: nil,
                counters: PhoneCounters(),
                chunkRows: 100,
                logger: Logger(label: "test"),
                clock: WallClock { self.time.withLock { $0 } }
            )
            let inputs = self.inputs
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    var loop = loop
                    await loop.run(inputs)
                }
                try await body(self)
                inputs.close()
                try await group.waitForAll()
            }
        }

        func queue(_ id: String, _ kind: SessionCommand, at issued: Double, deadline: Double = 100) async throws {
            try await inbox.commands.queue(
                QueuedCommand(
                    id: id,
                    wearable: "pi",
                    kind: kind,
                    activity: kind == .start ? .walking : nil,
                    issuedAt: issued,
                    validFor: 60,
                    deadline: deadline
                )
            )
        }

        /// A stream of "pi" opened at `now`: its outgoing messages.
        func connect(_ id: Int, at now: Double) async throws -> AsyncStream<Wearbridge_Link_V1_PhoneMessage> {
            time.withLock { $0 = now }
            let hello = Wearbridge_Link_V1_Hello.with {
                $0.wearableName = "pi"
                $0.outboxEpoch = "epoch"
                $0.outboxHead = 0
            }
            guard case .opened(let outgoing) = await inputs.ask(.hello(.init(id: id, wearable: "pi"), hello)) else {
                throw TestFailure("the stream did not open")
            }
            return outgoing
        }

        func tick(at now: Double) async {
            time.withLock { $0 = now }
            _ = await inputs.ask(.tick)
        }

        func close(_ id: Int) async {
            _ = await inputs.ask(.closed(.init(id: id, wearable: "pi")))
        }

        /// The wearable's reply to command `id`, through its outbox as envelope `seq`.
        func reply(_ id: String, seq: UInt64, on stream: Int) async -> PhoneLoopAnswer {
            let envelope = Wearbridge_Link_V1_Envelope.with {
                $0.seq = seq
                $0.class = .critical
                $0.payload.commandReply = .with {
                    $0.commandID = id
                    $0.ok = true
                }
            }
            return await inputs.ask(.message(.init(id: stream, wearable: "pi"), .with { $0.envelope = envelope }))
        }
    }

    private struct TestFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Every command a stream was sent, as (id, kind, age in ms); the stream must have ended.
    private static func commands(
        _ stream: AsyncStream<Wearbridge_Link_V1_PhoneMessage>
    ) async -> [(id: String, kind: Wearbridge_Link_V1_CommandKind, ageMs: UInt64)] {
        var result: [(String, Wearbridge_Link_V1_CommandKind, UInt64)] = []
        for await message in stream {
            guard case .command(let command) = message.body else { continue }
            result.append((command.commandID, command.kind, command.ageMs))
        }
        return result
    }

    @Test func commandsGoOutInIssueOrderOnlyToAConnectedWearableAndAgainAfterAReconnection() async throws {
        let rig = try Rig()
        try await rig.run { rig in
            try await rig.queue("b", .pause, at: 2)
            try await rig.queue("a", .start, at: 1)
            await rig.tick(at: 3)
            #expect(
                try rig.inbox.commands.standing("a")?.state == .pending,
                "not connected: nothing sent, nothing settled"
            )
            let first = try await rig.connect(1, at: 3.5)
            await rig.tick(at: 3.5)
            await rig.tick(at: 4)
            await rig.close(1)
            let second = try await rig.connect(2, at: 5)
            await rig.tick(at: 5)
            await rig.close(2)
            let sent = await Self.commands(first) + Self.commands(second)
            #expect(sent.map(\.id) == ["a", "b", "a", "b"], "in issue order, once per round, again after the cut")
            #expect(sent.map(\.kind) == [.start, .pause, .start, .pause])
            #expect(sent.map(\.ageMs) == [2500, 1500, 4000, 3000], "the age since issue travels with each send")
        }
    }

    @Test func theWearablesReplyStopsTheResendsAndAReplyForAnUnknownIdIsHarmless() async throws {
        let rig = try Rig()
        try await rig.run { rig in
            let stream = try await rig.connect(1, at: 1)
            try await rig.queue("a", .end, at: 1)
            await rig.tick(at: 1)
            #expect(await rig.reply("a", seq: 1, on: 1).isCarryOn)
            #expect(await rig.reply("z", seq: 2, on: 1).isCarryOn)
            await rig.tick(at: 20)
            await rig.close(1)
            #expect(await Self.commands(stream).map(\.id) == ["a"], "answered: not sent again at its next period")
            #expect(try rig.inbox.commands.standing("a")?.answer?.outcome == .ack)
            #expect(try rig.inbox.commands.standing("z") == nil, "a reply for an unknown id creates nothing")
        }
    }

    @Test func aCommandUnansweredByItsDeadlineIsSettledAsNotAnswered() async throws {
        let rig = try Rig()
        try await rig.run { rig in
            let stream = try await rig.connect(1, at: 1)
            try await rig.queue("a", .resume, at: 1, deadline: 10)
            await rig.tick(at: 1)
            await rig.tick(at: 9)
            await rig.tick(at: 10)
            let settled = try rig.inbox.commands.standing("a")
            #expect(settled?.state == .notAnswered)
            #expect(settled?.answer?.outcome == .notAnswered)
            #expect(try rig.inbox.commands.pending().isEmpty)
            await rig.close(1)
            #expect(
                await Self.commands(stream).map(\.id) == ["a", "a"],
                "sent, resent after retryEvery, then given up"
            )
        }
    }

    @Test func aLoopHeldUpFindsOneTickWaitingNotABacklog() async {
        let inputs = PhoneInputs()
        for _ in 0..<5 { inputs.tick() }
        var taken = 0
        for await item in inputs.stream {
            guard case .tick = item.input else { continue }
            taken += 1
            inputs.tookTick()
            if taken == 1 { inputs.tick() } else { inputs.close() }
        }
        #expect(taken == 2, "one tick for the five sent while none was taken, then the next")
    }

    @Test func onceTheLoopStopsEveryStreamIsEndedAndNoQuestionWaits() async throws {
        let rig = try Rig()
        let opened = Mutex<AsyncStream<Wearbridge_Link_V1_PhoneMessage>?>(nil)
        try await rig.run { rig in
            let stream = try await rig.connect(1, at: 1)
            opened.withLock { $0 = stream }
        }
        var ended = false
        for await _ in opened.withLock({ $0 })! {}
        ended = true
        #expect(ended, "the stream's queue was finished")
        if case .end = await rig.inputs.ask(.tick) {} else { Issue.record("a question after the stop was answered") }
    }
}

extension PhoneLoopAnswer {
    fileprivate var isCarryOn: Bool { if case .carryOn = self { true } else { false } }
}
