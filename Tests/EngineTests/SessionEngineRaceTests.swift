import Engine
import GATT
import PhoneLinkMessages
import RaceCore
import SessionCore
import SpeedSensors
import SyntheticReceivers
import Testing
import TrackCore

/// A virtual race on the wearable's engine: armed only with a GPS fix and no session, counted down
/// on the monotonic clock from GPS time, started at the agreed instant with its offset reported,
/// and the partner's events applied once each.
@Suite("Engine core: a virtual race")
struct SessionEngineRaceTests {
    private func answer(_ harness: EngineHarness, _ token: ReplyToken) -> CommandReply? {
        if case .command(let reply)? = harness.reply(token) { reply } else { nil }
    }

    private func raceEvents(_ harness: EngineHarness) -> [RaceEvent] {
        harness.events.compactMap { if case .race(let event) = $0 { event } else { nil } }
    }

    /// GPS time of the fixes is `t`; their receive instants run 1000.05 s ahead of `t - t0`.
    private func order(startAt: Double) -> RaceInstruction {
        .order(RaceOrder(run: "run-1", partner: "bea", startAt: startAt))
    }

    @Test func withoutAFixTheRaceIsRefusedNotReady() {
        var harness = EngineHarness(phoneLink: true)
        let token = harness.raceCommand(.race, id: "r", order(startAt: StraightLine.t0 + 60))
        let reply = answer(harness, token)
        #expect(reply?.accepted == false && reply?.refusal == .notReady, "\(String(describing: reply))")
        #expect(harness.engine.race == nil)
    }

    @Test func theSessionStartsAtTheAgreedInstantByGPSTimeAndReportsItsOffset() {
        var harness = EngineHarness(phoneLink: true)
        harness.ride(StraightLine.fixes(from: StraightLine.t0, seconds: 10, speed: 0))
        let startAt = StraightLine.t0 + 45
        let token = harness.raceCommand(.race, id: "r", order(startAt: startAt))
        #expect(answer(harness, token)?.accepted == true)
        #expect(harness.sessionID == nil, "armed, not started")
        // The engine asks to be woken at each call: the shell's alarm, simulated exactly.
        var woken = 0
        while let wake = harness.actions.reversed().compactMap({ if case .wake(let at) = $0 { at } else { nil } })
            .first,
            harness.sessionID == nil, woken < 20
        {
            woken += 1
            harness.now.monotonic = max(harness.now.monotonic, wake)
            harness.send(.tick)
        }
        #expect(harness.sessionID != nil)
        let calls = raceEvents(harness).compactMap { if case .countdown(let call) = $0 { call } else { nil } }
        #expect(calls.first == .startingIn(30))
        #expect(calls.contains(.startingIn(1)))
        guard case .go(let late)? = calls.last else {
            Issue.record("no go: \(calls)")
            return
        }
        #expect(late < 0.001)
        let started = raceEvents(harness).compactMap {
            if case .started(_, _, _, let offset, let clock, _) = $0 { (offset, clock) } else { nil }
        }
        #expect(started.count == 1)
        #expect(started.first?.1 == .gps)
        // The fixes' GPS time says the start was at `startAt`: the offset is what the receive
        // instants' 0.05 s of latency makes of it, in milliseconds.
        #expect(abs(started.first?.0 ?? 999) <= 60, "\(started)")
        // Started in the race's name, and the phone hears which race.
        #expect(
            harness.logged.contains {
                if case .outbox(.raceStarted(_, let run, _, _), _) = $0 { run == "run-1" } else { false }
            }
        )
    }

    @Test func indoorsTheRaceArmsWithoutAFixCountsDownOnTheSystemClockAndTheTreadmillCarriesIt() {
        var harness = EngineHarness(.init(indoorByDefault: true, indoorSource: .treadmill), phoneLink: true)
        let startAt = harness.now.system + 40
        let token = harness.raceCommand(.race, id: "r", order(startAt: startAt))
        #expect(answer(harness, token)?.accepted == true, "no fix is asked for indoors")
        let armed = raceEvents(harness).compactMap { if case .armed(_, _, _, let clock) = $0 { clock } else { nil } }
        #expect(armed == [.system])
        var woken = 0
        while let wake = harness.actions.reversed().compactMap({ if case .wake(let at) = $0 { at } else { nil } })
            .first,
            harness.sessionID == nil, woken < 20
        {
            woken += 1
            let step = max(0, wake - harness.now.monotonic)
            harness.now.monotonic += step
            harness.now.system += step
            harness.send(.tick)
        }
        let started = raceEvents(harness).compactMap {
            if case .started(_, _, _, let offset, let clock, _) = $0 { (offset, clock) } else { nil }
        }
        #expect(started.count == 1 && started.first?.1 == .system && abs(started.first?.0 ?? 999) <= 1)
        #expect(harness.engine.controller.session?.track.distanceSource == .treadmill)
        // The belt at 3 m/s for 20 s; the partner, 50 m behind at 20 s, sends their figures.
        for k in 0...20 {
            harness.now.monotonic += 1
            harness.now.system += 1
            let reading = SpeedSample(speed: 3, totalDistance: Double(1000 + 3 * k))
            harness.send(
                .speedSensor(
                    SpeedSensorLinkEvent(
                        kind: .treadmill,
                        address: "F3",
                        what: .sample(reading, payload: []),
                        receivedAt: harness.now.monotonic
                    )
                )
            )
        }
        harness.send(
            .partnerSnapshot(
                PartnerSnapshotReport(
                    run: "run-1",
                    sequence: 1,
                    distance: 10,
                    gpsTime: nil,
                    elapsed: 20,
                    paused: false,
                    expiresAt: nil
                )
            )
        )
        let status = harness.engine.race?.tracker.status(now: harness.now.monotonic)
        #expect(abs((status?.gapMetres ?? 0) - 50) <= 4, "\(String(describing: status))")
    }

    @Test func aRaceIsNotArmedOverARunningSession() {
        var harness = EngineHarness(phoneLink: true)
        harness.ride(StraightLine.fixes(from: StraightLine.t0, seconds: 5, speed: 0))
        harness.command(.start, id: "own")
        let token = harness.raceCommand(.race, id: "r", order(startAt: StraightLine.t0 + 90))
        #expect(answer(harness, token)?.refusal == .alreadyActive)
    }

    @Test func aPartnerEventIsAppliedOnceWhateverTheRetries() {
        var harness = EngineHarness(phoneLink: true)
        let event = RaceInstruction.partner(
            run: "run-1",
            sequence: 1,
            event: .finished(elapsedSeconds: 1500, distanceMetres: 5000)
        )
        let first = harness.raceCommand(.partnerEvent, id: "partner-run-1-1", event)
        let second = harness.raceCommand(.partnerEvent, id: "partner-run-1-1", event)
        #expect(answer(harness, first)?.accepted == true)
        #expect(answer(harness, second) == answer(harness, first))
        let finished = raceEvents(harness).filter {
            if case .news(.partnerFinished) = $0 { true } else { false }
        }
        #expect(finished.count == 1)
    }

    @Test func aCancelledCountdownStartsNothing() {
        var harness = EngineHarness(phoneLink: true)
        harness.ride(StraightLine.fixes(from: StraightLine.t0, seconds: 5, speed: 0))
        harness.raceCommand(.race, id: "r", order(startAt: StraightLine.t0 + 40))
        let cancel = harness.raceCommand(.cancelRace, id: "c", order(startAt: 0))
        #expect(answer(harness, cancel)?.accepted == true)
        harness.tick(until: harness.now.monotonic + 60)
        #expect(harness.sessionID == nil)
        #expect(raceEvents(harness).contains { if case .disarmed = $0 { true } else { false } })
    }
}
