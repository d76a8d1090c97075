import Testing

@testable import TrackCore

/// An indoor session: a footpod's or treadmill's readings take the place of fixes.
@Suite("Indoor sessions (footpod, treadmill)")
struct IndoorTrackTests {
    /// Readings once a second from `t0`, the count going up by `speed` each second.
    func run(
        _ session: inout TrackSession,
        from t0: Double = 1000,
        seconds: Int,
        speed: Double,
        startTotal: Double = 0
    ) -> [TrackEvent] {
        var events: [TrackEvent] = []
        for k in 0...seconds {
            let reading = StrideReading(
                time: GPSTime(seconds: t0 + Double(k)),
                totalDistance: startTotal + speed * Double(k),
                speed: speed
            )
            events += session.stride(reading)
        }
        return events
    }

    @Test func theDistanceIsTheDifferenceOfTheSensorsOwnCount() {
        var session = TrackSession(indoor: .running, source: .treadmill)
        // Its count starts at 512 m (an earlier workout): only what this session saw counts.
        let events = run(&session, seconds: 600, speed: 3.0, startTotal: 512)
        #expect(abs(session.distance - 1800) < 1e-6)
        #expect(session.elapsed == 600 && session.movingTime == 600)
        #expect(session.distanceSource == .treadmill && session.summary.distanceSource == .treadmill)
        #expect(events.contains { if case .split(let split) = $0 { split.index == 1 } else { false } })
        #expect(session.currentSpeed == 3.0)
    }

    @Test func aFootpodsFactorScalesItsDistanceAndSpeed() {
        var session = TrackSession(
            indoor: .running,
            source: .footpod,
            factors: StrideFactors(edges: [2.6, 4.0], factors: [0.5, 1 / 1.07, 2])
        )
        _ = run(&session, seconds: 300, speed: 3.21)
        #expect(abs(session.distance - 300 * 3.21 / 1.07) < 1e-6)
        #expect(abs((session.currentSpeed ?? 0) - 3.0) < 1e-9)
    }

    @Test func readingsMissedWhileTheLinkWasDownLoseNoDistance() {
        var session = TrackSession(indoor: .running, source: .footpod)
        _ = run(&session, from: 0, seconds: 60, speed: 3.0)
        // 20 s with no reading; the footpod counted on: the next reading carries those 60 m.
        _ = run(&session, from: 80, seconds: 40, speed: 3.0, startTotal: 240)
        #expect(abs(session.distance - 360) < 1e-6)
    }

    @Test func aCountThatGoesBackOrLeapsCreditsNothingAndIsTheNewBaseline() {
        var session = TrackSession(indoor: .running, source: .footpod)
        _ = run(&session, from: 0, seconds: 100, speed: 3.0)
        // Reset to zero by its owner mid-run, then counting again.
        _ = run(&session, from: 101, seconds: 50, speed: 3.0, startTotal: 0)
        #expect(abs(session.distance - 450) < 1e-6)
        // A leap no runner makes (5 km in a second) is not distance.
        _ = session.stride(StrideReading(time: GPSTime(seconds: 152), totalDistance: 5150, speed: 3))
        _ = session.stride(StrideReading(time: GPSTime(seconds: 153), totalDistance: 5153, speed: 3))
        #expect(abs(session.distance - 453) < 1e-6)
    }

    @Test func withoutACountTheSpeedIsIntegrated() {
        var session = TrackSession(indoor: .running, source: .treadmill)
        for k in 0...100 {
            _ = session.stride(StrideReading(time: GPSTime(seconds: Double(k)), totalDistance: nil, speed: 2.5))
        }
        #expect(abs(session.distance - 250) < 1e-6)
    }

    @Test func aStoppedBeltPausesTheTimerAndAManualPauseCreditsNoDistance() {
        var session = TrackSession(indoor: .running, source: .treadmill)
        _ = run(&session, from: 0, seconds: 60, speed: 3.0)
        let stopped = run(&session, from: 61, seconds: 30, speed: 0, startTotal: 180)
        #expect(stopped.contains { if case .autoPaused = $0 { true } else { false } })
        let resumed = run(&session, from: 92, seconds: 30, speed: 3.0, startTotal: 180)
        #expect(resumed.contains { if case .autoResumed = $0 { true } else { false } })
        #expect(session.pausedTime > 20)

        let before = session.distance
        session.pauseByCommand()
        _ = run(&session, from: 123, seconds: 20, speed: 3.0, startTotal: 270)
        session.resumeByCommand()
        _ = run(&session, from: 144, seconds: 10, speed: 3.0, startTotal: 333)
        // The 63 m run while paused by hand are not the session's; the 30 m after the resume are.
        #expect(abs(session.distance - before - 30) < 1e-6)
        #expect(session.manualPausedTime >= 20)
    }

    @Test func anOutdoorSessionIgnoresStrideReadings() {
        var session = TrackSession(activity: .running)
        #expect(session.stride(StrideReading(time: GPSTime(seconds: 1), totalDistance: 10, speed: 3)).isEmpty)
        #expect(session.distance == 0 && session.distanceSource == .gps)
    }
}
