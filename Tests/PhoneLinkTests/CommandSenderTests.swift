import Harness
import Logging
import PhoneLinkContract
import ProcessClock
import RaceStore
import SessionCore
import Testing
import TrackCore

@testable import PhoneServer

/// The phone's command sender against a real inbox: commands go out in the order they were issued,
/// typed on the wire; again with the same id after a reconnection; an answer stops the resends; a
/// reply for an id nobody asked about is harmless; the deadline settles it as not answered.
@Suite("Phone link: the phone's command sender")
struct CommandSenderTests {
    /// A sender with one wearable, "pi", whose connection's messages are collected.
    private struct Rig {
        let inbox: Inbox
        let connections = Connections()
        let sender: CommandSender
        let stream: AsyncStream<Wearbridge_Link_V1_PhoneMessage>
        let outgoing: AsyncStream<Wearbridge_Link_V1_PhoneMessage>.Continuation

        init() throws {
            inbox = try Inbox.open(directory: try temporaryDirectory("sender"), parts: [RaceStore.self])
            // Time comes in as each step's argument: the sender reads no clock of its own here.
            let clock = WallClock {
                Issue.record("the sender read the wall clock")
                return 0
            }
            sender = CommandSender(
                inbox: inbox,
                connections: connections,
                retryEvery: 8,
                logger: Logger(label: "test"),
                clock: clock
            )
            (stream, outgoing) = AsyncStream.makeStream(of: Wearbridge_Link_V1_PhoneMessage.self)
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

        /// Every command sent so far, as (id, kind, age in ms).
        func sent() async -> [(id: String, kind: Wearbridge_Link_V1_CommandKind, ageMs: UInt64)] {
            outgoing.finish()
            var result: [(String, Wearbridge_Link_V1_CommandKind, UInt64)] = []
            for await message in stream {
                result.append((message.command.commandID, message.command.kind, message.command.ageMs))
            }
            return result
        }
    }

    @Test func commandsGoOutInIssueOrderOnlyToAConnectedWearableAndAgainAfterAReconnection() async throws {
        let rig = try Rig()
        try await rig.queue("b", .pause, at: 2)
        try await rig.queue("a", .start, at: 1)
        try await rig.sender.step(3)
        #expect(try rig.inbox.commands.standing("a")?.state == .pending, "not connected: nothing sent, nothing settled")
        _ = rig.connections.attach("pi", rig.outgoing)
        rig.sender.reconnected("pi", at: 3.5)
        try await rig.sender.step(3.5)
        try await rig.sender.step(4)
        rig.sender.reconnected("pi", at: 5)
        try await rig.sender.step(5)
        let sent = await rig.sent()
        #expect(sent.map(\.id) == ["a", "b", "a", "b"], "in issue order, once per round, again after the cut")
        #expect(sent.map(\.kind) == [.start, .pause, .start, .pause])
        #expect(sent.map(\.ageMs) == [2500, 1500, 4000, 3000], "the age since issue travels with each send")
    }

    @Test func anAnswerStopsTheResendsAndAReplyForAnUnknownIdIsHarmless() async throws {
        let rig = try Rig()
        _ = rig.connections.attach("pi", rig.outgoing)
        try await rig.queue("a", .end, at: 1)
        try await rig.sender.step(1)
        // As the service does with a reply: settled in the inbox, then the sender told.
        try await rig.inbox.commands.settle(
            CommandAnswer(id: "a", outcome: .ack, message: "ended", session: nil),
            at: 2
        )
        rig.sender.answered("a")
        try await rig.inbox.commands.settle(
            CommandAnswer(id: "z", outcome: .fail(.notActive), message: "", session: nil),
            at: 2
        )
        rig.sender.answered("z")
        try await rig.sender.step(20)
        #expect(await rig.sent().map(\.id) == ["a"], "answered: not sent again at its next period")
        #expect(try rig.inbox.commands.standing("a")?.answer?.outcome == .ack)
        #expect(try rig.inbox.commands.standing("z") == nil, "a reply for an unknown id creates nothing")
    }

    @Test func aCommandUnansweredByItsDeadlineIsSettledAsNotAnswered() async throws {
        let rig = try Rig()
        _ = rig.connections.attach("pi", rig.outgoing)
        try await rig.queue("a", .resume, at: 1, deadline: 10)
        try await rig.sender.step(1)
        try await rig.sender.step(9)
        try await rig.sender.step(10)
        let settled = try rig.inbox.commands.standing("a")
        #expect(settled?.state == .notAnswered)
        #expect(settled?.answer?.outcome == .notAnswered)
        #expect(try rig.inbox.commands.pending().isEmpty)
        #expect(await rig.sent().map(\.id) == ["a", "a"], "sent, resent after retryEvery, then given up")
    }
}
