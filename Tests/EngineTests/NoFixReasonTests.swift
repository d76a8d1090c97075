import SyntheticReceivers
import Testing
import TrackCore

@testable import Engine

/// Why there is no fix, as `status` tells it from what gpsd said: unreachable, no receiver, a
/// silent receiver, a receiver searching with its satellites; nothing once there is a fix.
@Suite("Engine core: why there is no fix")
struct NoFixReasonTests {
    @Test func gpsdNotReachedSaysSoWithTheConnectionsError() {
        var harness = EngineHarness()
        harness.send(.tick)
        #expect(harness.status()?.gps.noFix == .gpsdUnreachable(nil), "before the first attempt ended")
        harness.send(.gps(.disconnected(reason: "connection refused (127.0.0.1:2947)")))
        #expect(harness.status()?.gps.noFix == .gpsdUnreachable("connection refused (127.0.0.1:2947)"))
    }

    @Test func gpsdWithoutAReceiverThenOneThatSendsNothing() {
        var harness = EngineHarness()
        harness.send(.gps(.connected))
        #expect(harness.status()?.gps.noFix == .waitingForGPSD)
        harness.send(.gps(.receivers([])))
        #expect(harness.status()?.gps.noFix == .noReceiver)
        harness.send(.gps(.device(path: "/dev/ttyUSB0", activated: true, receivedAt: harness.now.monotonic)))
        #expect(harness.status()?.gps.noFix == .waitingForGPSD, "a receiver just plugged in has a moment")
        harness.tick(until: harness.now.monotonic + GPSDView.silentAfter)
        #expect(harness.status()?.gps.noFix == .receiverSilent(path: "/dev/ttyUSB0"))
        harness.send(.gps(.device(path: "/dev/ttyUSB0", activated: false, receivedAt: harness.now.monotonic)))
        #expect(harness.status()?.gps.noFix == .noReceiver)
    }

    @Test func aReceiverWithoutAFixIsSearchingWithTheSatellitesItSees() {
        var harness = EngineHarness()
        harness.send(.gps(.connected))
        harness.send(.gps(.receivers(["/dev/gps0"])))
        harness.send(.gps(.sky(seen: 9, used: 0)))
        harness.feed([Fix(mode: 1, time: nil, position: nil, receivedAt: harness.now.monotonic + 1)])
        #expect(harness.status()?.gps.noFix == .searching(satellitesSeen: 9, satellitesUsed: 0))
        // The receiver then falls silent: its reports stopped, whatever it said last.
        harness.tick(until: harness.now.monotonic + GPSDView.silentAfter + 1)
        #expect(harness.status()?.gps.noFix == .receiverSilent(path: "/dev/gps0"))
    }

    @Test func aFixTakesTheReasonAwayAndLosingItBringsItBack() {
        var harness = EngineHarness(.init(gpsLostAfter: 4))
        harness.send(.gps(.connected))
        harness.send(.gps(.receivers(["/dev/gps0"])))
        harness.feed(StraightLine.fixes(from: StraightLine.t0, seconds: 5))
        #expect(harness.status()?.gps.noFix == nil)
        // The receiver loses the sky: reports go on, without a fix.
        let last = StraightLine.received(StraightLine.t0 + 4)
        for second in 1...8 {
            harness.feed([Fix(mode: 1, time: nil, position: nil, receivedAt: last + Double(second))])
            harness.send(.gps(.sky(seen: 4, used: 0)))
            harness.send(.tick)
        }
        let status = harness.status()?.gps
        #expect(status?.lost == true)
        #expect(status?.noFix == .searching(satellitesSeen: 4, satellitesUsed: 0))
    }

    @Test func gpsdsRefusalIsTheReasonUntilAReportComes() {
        var harness = EngineHarness()
        harness.send(.gps(.connected))
        harness.send(.gps(.gpsdError("Unrecognized request 'WATCH'")))
        #expect(harness.status()?.gps.noFix == .gpsdError("Unrecognized request 'WATCH'"))
        harness.send(.gps(.receivers(["/dev/gps0"])))
        harness.feed([Fix(mode: 1, time: nil, position: nil, receivedAt: harness.now.monotonic + 1)])
        #expect(harness.status()?.gps.noFix == .searching(satellitesSeen: nil, satellitesUsed: nil))
    }

    @Test func aReconnectionForgetsWhatTheOldConnectionSaid() {
        var harness = EngineHarness()
        harness.send(.gps(.connected))
        harness.send(.gps(.receivers([])))
        harness.send(.gps(.disconnected(reason: "gpsd closed the connection")))
        #expect(harness.status()?.gps.noFix == .gpsdUnreachable("gpsd closed the connection"))
        harness.send(.gps(.connected))
        #expect(harness.status()?.gps.noFix == .waitingForGPSD)
    }
}
