import SessionCore
import Testing
import TrackCore

@Suite("Session lifecycle")
struct SessionLifecycleTests {
    typealias State = SessionLifecycle.State

    /// Every command in every state: the transition or a refusal, nothing else.
    @Test(arguments: [
        (State.idle, SessionCommand.start, State.starting, true),
        (.idle, .pause, .idle, false), (.idle, .resume, .idle, false), (.idle, .end, .idle, false),
        (.active, .start, .active, false), (.active, .pause, .paused(.command), true),
        (.active, .resume, .active, false), (.active, .end, .ending, true),
        (.paused(.command), .pause, .paused(.command), false), (.paused(.command), .resume, .active, true),
        (.paused(.command), .end, .ending, true), (.paused(.command), .start, .paused(.command), false),
        (.paused(.auto), .pause, .paused(.command), true), (.paused(.auto), .resume, .paused(.auto), false),
        (.paused(.auto), .end, .ending, true), (.starting, .end, .ending, true), (.starting, .pause, .starting, false),
        (.ending, .start, .ending, false), (.ending, .end, .ending, false),
    ])
    func transitions(from: State, command: SessionCommand, to: State, accepted: Bool) {
        var lifecycle = SessionLifecycle(state: from)
        let result = lifecycle.apply(command)
        #expect(lifecycle.state == to)
        switch result {
        case .success: #expect(accepted)
        case .failure(let refusal):
            #expect(!accepted)
            #expect(!refusal.reason.isEmpty)
        }
    }

    @Test func autoPauseFollowsTheCoreButNeverOverridesACommand() {
        var lifecycle = SessionLifecycle(state: .active)
        lifecycle.autoPaused()
        #expect(lifecycle.state == .paused(.auto))
        lifecycle.autoResumed()
        #expect(lifecycle.state == .active)
        _ = lifecycle.apply(.pause)
        lifecycle.autoResumed()
        lifecycle.autoPaused()
        #expect(lifecycle.state == .paused(.command))
    }

    @Test func stateNamesRoundTrip() {
        for state in [State.idle, .starting, .active, .paused(.command), .paused(.auto), .ending] {
            #expect(State(name: state.name) == state)
        }
        #expect(State(name: "running") == nil)
    }

    @Test func ledgerForgetsOldestBeyondCapacity() {
        var ledger = CommandLedger(capacity: 3)
        for i in 0..<5 {
            ledger.record(
                CommandReply(
                    commandID: "c\(i)",
                    command: .pause,
                    accepted: false,
                    message: "",
                    sessionID: nil,
                    state: .idle
                )
            )
        }
        #expect(ledger.reply(for: "c0") == nil)
        #expect(ledger.reply(for: "c1") == nil)
        #expect(ledger.reply(for: "c4")?.commandID == "c4")
        #expect(ledger.reply(for: "c2") != nil)
    }
}
