import ATT
import HeartRate
import SessionCore
import SyntheticReceivers
import Testing
import TrackCore

/// Fixes, ticks and strap events through the engine core: what is announced, what is logged,
/// and that `status` judges GPS loss as the announcements do.
@Suite("Engine core: sensors")
struct SessionEngineSensorTests {
    @Test func gpsLostIsAnnouncedOnceAndStatusSaysTheSame() throws {
        var harness = EngineHarness(.init(gpsLostAfter: 4))
        harness.send(.gps(.connected))
        harness.command(.start, id: "s")
        harness.feed(StraightLine.fixes(from: StraightLine.t0, seconds: 10))
        harness.tick(until: StraightLine.received(StraightLine.t0 + 9) + 3)
        #expect(harness.status()?.gps.lost == false)
        #expect(!harness.events.contains { if case .track(.gpsLost) = $0 { true } else { false } })
        harness.tick(until: StraightLine.received(StraightLine.t0 + 9) + 30)
        let losses = harness.events.filter { if case .track(.gpsLost) = $0 { true } else { false } }
        #expect(losses == [.track(.gpsLost(lastFix: GPSTime(seconds: StraightLine.t0 + 9)))], "once, not at every tick")
        #expect(harness.status()?.gps.lost == true)
        #expect(harness.storedEvents.contains { $0.announcement.event == losses[0] })
        harness.feed(StraightLine.fixes(from: StraightLine.t0 + 40, seconds: 3))
        #expect(harness.events.contains { if case .track(.gpsRegained) = $0 { true } else { false } })
        #expect(harness.status()?.gps.lost == false)
    }

    @Test func withoutASessionStatusJudgesLossByTheSameRule() {
        var harness = EngineHarness(.init(gpsLostAfter: 4))
        harness.send(.gps(.connected))
        harness.feed(StraightLine.fixes(from: StraightLine.t0, seconds: 3))
        harness.tick(until: StraightLine.received(StraightLine.t0 + 2) + 3)
        #expect(harness.status()?.gps.lost == false)
        harness.tick(until: StraightLine.received(StraightLine.t0 + 2) + 5)
        #expect(harness.status()?.gps.lost == true)
        // gpsd gone is lost whatever the last fix.
        harness.feed(StraightLine.fixes(from: StraightLine.t0 + 8, seconds: 2))
        #expect(harness.status()?.gps.lost == false)
        harness.send(.gps(.disconnected(reason: "gpsd closed the connection")))
        #expect(harness.status()?.gps.lost == true)
        #expect(harness.disk.isEmpty, "nothing is logged without a session")
    }

    @Test func aSplitIsAnnouncedWithExactlyTheFiguresOfItsRow() throws {
        var harness = EngineHarness()
        harness.command(.start, id: "s")
        harness.feed(StraightLine.fixes(from: StraightLine.t0, seconds: 700))
        harness.tick(until: StraightLine.received(StraightLine.t0 + 701))
        let announced = harness.announcements.filter { if case .track(.split) = $0.event { true } else { false } }
        try #require(announced.count == 2, "2.1 km: two splits")
        for announcement in announced {
            guard case .track(.split(let split)) = announcement.event else { continue }
            let row = harness.storedEvents.first { $0.announcement == announcement }
            #expect(row != nil, "the split row is the announcement itself")
            #expect(split.distance >= 1000 && split.duration > 0)
        }
        let track = try #require(harness.engine.controller.session?.track)
        #expect(announced.map(\.event) == track.splits.map { .track(.split($0)) })
    }

    @Test func strapEventsAreAnnouncedAlwaysAndLoggedInASession() throws {
        var harness = EngineHarness(strap: true)
        let address = try #require(BluetoothAddress("F1:F1:F1:F1:F1:F1", kind: .random))
        harness.send(.strap(.chosen(address)))
        #expect(harness.actions.contains(.rememberStrap(address)))
        harness.send(.strap(.strap(.found(address: address.text), receivedAt: 1000)))
        #expect(
            harness.announcements.last
                == Announcement(.strap(.found(address: address.text)), sessionID: nil, receivedAt: 1000)
        )
        #expect(harness.disk.isEmpty)

        harness.command(.start, id: "s")
        let id = try #require(harness.sessionID)
        harness.send(.strap(.beat(.init(bpm: 150, contact: .detected), payload: [0x06, 150], receivedAt: 1001)))
        harness.send(.strap(.beat(.init(bpm: 40, contact: .notDetected), payload: [0x04, 40], receivedAt: 1002)))
        harness.send(.strap(.bodySensorLocation("chest", receivedAt: 1003)))
        harness.send(.strap(.bodySensorLocation("chest", receivedAt: 1004)))
        harness.send(.strap(.malformedBeat(payload: [0x10], reason: "truncated", receivedAt: 1005)))
        harness.send(.strap(.strap(.lost(reason: "silent"), receivedAt: 1006)))
        harness.tick(until: 1007)
        let beats = harness.disk.compactMap { if case .heartRate(id, _, let sample, _) = $0 { sample } else { nil } }
        #expect(beats.map(\.bpm) == [150, 40] && beats[1].contact == .notDetected && beats[0].payload == [0x06, 150])
        #expect(harness.engine.controller.session?.track.heartRate == nil, "no zones configured: no figures")
        let logged = harness.storedEvents.map(\.announcement.event)
        #expect(logged.contains(.strapLocation("chest")))
        #expect(logged.filter { $0 == .strapLocation("chest") }.count == 1, "logged when it changes only")
        #expect(logged.contains(.malformedBeat(payload: [0x10], reason: "truncated")))
        #expect(logged.contains(.strap(.lost(reason: "silent"))))
        let status = try #require(harness.status()?.heartRate)
        #expect(status.link == .lost && status.beats == 2 && status.malformed == 1 && status.location == "chest")
    }

    @Test func gpsdComingAndGoingIsLoggedInASession() throws {
        var harness = EngineHarness()
        harness.command(.start, id: "s")
        harness.send(.gps(.connected))
        harness.send(.gps(.device(path: "/dev/ttyUSB0", activated: false, receivedAt: 1001)))
        harness.send(.gps(.disconnected(reason: "gpsd closed the connection")))
        harness.tick(until: 1002)
        let logged = harness.storedEvents.map(\.announcement.event)
        #expect(
            logged == [
                .started(TimeAnchor(source: .system, seconds: 1_700_000_000)), .gpsdConnected,
                .deviceRemoved(path: "/dev/ttyUSB0"), .gpsdDisconnected,
            ]
        )
    }
}
