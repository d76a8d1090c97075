import Testing

@testable import TrackCore

@Suite struct FixGateTests {
    let here = GeoPoint(latitude: 52.5, longitude: 13.4)
    let t0 = GPSTime(seconds: 1_700_000_000)

    func fix(
        _ dt: Double,
        eph: Double? = 5,
        mode: Int = 3,
        position: GeoPoint? = nil,
        speed: Double? = 1,
        receivedAt: Double? = nil
    ) -> Fix {
        Fix(
            mode: mode,
            time: t0.adding(dt),
            position: position ?? here,
            horizontalError: eph,
            speed: speed,
            receivedAt: receivedAt
        )
    }

    /// Accepts and commits, as the session does for a fix it uses.
    mutating func pass(_ gate: inout FixGate, _ f: Fix) -> FixGate.Verdict {
        let verdict = gate.judge(f)
        if case .accept = verdict, let time = f.time { gate.commit(time) }
        return verdict
    }

    @Test func rejectsWhatCannotBeUsedWithItsReason() {
        var gate = FixGate(profile: .running)
        #expect(gate.judge(fix(0, mode: 1)) == .reject(.noFix))
        #expect(gate.judge(Fix(mode: 3, time: nil, position: here)) == .reject(.noTime))
        #expect(gate.judge(fix(0, position: GeoPoint(latitude: .nan, longitude: 1))) == .reject(.invalidCoordinates))
        #expect(gate.judge(fix(0, position: GeoPoint(latitude: 95, longitude: 1))) == .reject(.invalidCoordinates))
        #expect(gate.judge(fix(0, position: GeoPoint(latitude: 0, longitude: 0))) == .reject(.invalidCoordinates))
        #expect(gate.judge(Fix(mode: 3, time: t0, position: nil)) == .reject(.invalidCoordinates))
        #expect(gate.judge(fix(0, speed: 30)) == .reject(.impossibleSpeed))
    }

    @Test mutating func repeatedEpochsAndTimeGoingBackwardsAreRejected() {
        var gate = FixGate(profile: .running)
        #expect(pass(&gate, fix(10)) == .accept(newTimeline: false))
        #expect(pass(&gate, fix(10.0004)) == .reject(.duplicateEpoch))
        #expect(pass(&gate, fix(9)) == .reject(.timeBackwards))
        #expect(pass(&gate, fix(11)) == .accept(newTimeline: false))
        #expect(pass(&gate, fix(11 + 13 * 3600)) == .reject(.timeJump))
    }

    @Test mutating func consistentFixesOverruleABogusTimeLine() {
        // A cold receiver's first time stamp two years ahead, then the real time line.
        var gate = FixGate(profile: .walking)
        let bogus = 2 * 365 * 86_400.0
        #expect(pass(&gate, fix(bogus)) == .accept(newTimeline: false))
        var verdicts: [FixGate.Verdict] = []
        for i in 1...5 { verdicts.append(pass(&gate, fix(Double(i)))) }
        #expect(verdicts.prefix(4).allSatisfy { $0 == .reject(.timeBackwards) })
        #expect(verdicts.last == .accept(newTimeline: true))
        #expect(pass(&gate, fix(6)) == .accept(newTimeline: false))
    }

    @Test mutating func dopDerivedErrorsOf15To25MetresAreAcceptedWhileABurstIsNot() {
        var gate = FixGate(profile: .running)
        var rng = TestRandom(seed: 1)
        for i in 0..<120 {
            #expect(pass(&gate, fix(Double(i), eph: 15 + rng.uniform() * 10)) == .accept(newTimeline: false))
        }
        #expect(pass(&gate, fix(200, eph: 58)) == .reject(.horizontalError))
        #expect(gate.errorThreshold > 25 && gate.errorThreshold <= 60)
    }

    @Test mutating func realisticErrorsKeepATightGate() {
        var gate = FixGate(profile: .running)
        for i in 0..<60 { _ = pass(&gate, fix(Double(i), eph: 4)) }
        #expect(gate.errorThreshold == ActivityProfile.running.errorFloor)
        #expect(pass(&gate, fix(100, eph: 30)) == .reject(.horizontalError))
        #expect(pass(&gate, fix(101, eph: 9)) == .accept(newTimeline: false))
    }

    @Test mutating func warmUpIsLooser() {
        var gate = FixGate(profile: .running)
        let warmUp = ActivityProfile.running.warmUpFixes
        for i in 0..<(warmUp - 1) { _ = pass(&gate, fix(Double(i), eph: 20)) }
        #expect(gate.isWarmingUp)
        let during = gate.errorThreshold
        _ = pass(&gate, fix(Double(warmUp), eph: 20))
        #expect(!gate.isWarmingUp)
        #expect(abs(during / gate.errorThreshold - ActivityProfile.running.warmUpErrorFactor) < 1e-9)
    }

    @Test mutating func staleFixesAreJudgedAgainstTheSessionsOwnOffsetNotTheWallClock() {
        // The receive clock is a monotonic one that started at boot: nothing like GPS time.
        var gate = FixGate(profile: .running)
        for i in 0..<10 { _ = pass(&gate, fix(Double(i), receivedAt: 50 + Double(i) + 0.2)) }
        #expect(pass(&gate, fix(10, receivedAt: 60.4)) == .accept(newTimeline: false))
        #expect(pass(&gate, fix(11, receivedAt: 66)) == .reject(.stale))
        #expect(pass(&gate, fix(12, receivedAt: 62.3)) == .accept(newTimeline: false))
    }

    @Test mutating func aBacklogStaysStaleButASteadyShiftOfTheReceivePathIsAdopted() {
        var gate = FixGate(profile: .running)
        for i in 0..<10 { _ = pass(&gate, fix(Double(i), receivedAt: 50 + Double(i))) }
        // gpsd stalled and now delivers 8 s of backlog in a burst: each less late than the last,
        // stale until the backlog's tail is fresh again.
        for i in 10..<16 {
            #expect(pass(&gate, fix(Double(i), receivedAt: 67 + Double(i - 10) * 0.01)) == .reject(.stale))
        }
        for i in 16..<18 {
            #expect(pass(&gate, fix(Double(i), receivedAt: 67 + Double(i - 10) * 0.01)) == .accept(newTimeline: false))
        }
        // From then on every fix is 8 s late, steadily (the feed was paused and resumed, or a
        // slower path): four are refused, then the offset itself is taken to have moved.
        var verdicts: [FixGate.Verdict] = []
        for i in 18..<25 { verdicts.append(pass(&gate, fix(Double(i), receivedAt: 58 + Double(i)))) }
        #expect(verdicts.prefix(4).allSatisfy { $0 == .reject(.stale) })
        #expect(verdicts.dropFirst(4).allSatisfy { $0 == .accept(newTimeline: false) })
    }
    @Test mutating func aFeedWhosePaceDriftsSteadilyIsNeverStaleButABacklogInItIs() throws {
        // A replay paced by sleeps: each epoch arrives 8 ms later than a second after the last
        // (0.8 % slow), for ten minutes: 4.8 s behind by the end, yet never late against the
        // minute before it.
        var gate = FixGate(profile: .running)
        var received = 100.0
        for i in 0..<600 {
            #expect(pass(&gate, fix(Double(i), receivedAt: received)) == .accept(newTimeline: false))
            received += 1.008
        }
        // The receive clock maps to GPS time as the fixes arrive now, not as they did at the start.
        let now = try #require(gate.clockOffset.gpsTime(atReceive: received - 1.008))
        #expect(abs(now.since(t0) - 599) < 0.5)
        // gpsd stalls for 6 s and delivers its backlog in a burst: stale, as without the drift.
        received += 6
        #expect(pass(&gate, fix(600, receivedAt: received)) == .reject(.stale))
        #expect(pass(&gate, fix(601, receivedAt: received + 0.01)) == .reject(.stale))
    }

    @Test func theOffsetIsTheLeastDelayedFixOfTheLastMinuteOfGPSTime() throws {
        var offset = ClockOffset()
        #expect(offset.observe(epoch: t0, receivedAt: 10) == 0)
        #expect(offset.observe(epoch: t0.adding(1), receivedAt: 11.5) == 0.5)
        #expect(offset.best == 10 - t0.seconds)
        // Sixty seconds on, the first fix is out of the window and the later, slower ones count.
        #expect(abs(offset.observe(epoch: t0.adding(60.5), receivedAt: 71.2) - 0.2) < 1e-6)
        #expect(offset.best == 10.5 - t0.seconds)
        #expect(abs(offset.observe(epoch: t0.adding(61.5), receivedAt: 72.5) - 0.3) < 1e-6)
        #expect(abs(try #require(offset.best) - (10.7 - t0.seconds)) < 1e-6)
        // A fix from another time line altogether starts again from itself.
        #expect(offset.observe(epoch: t0.adding(-3600), receivedAt: 80) == 0)
        #expect(offset.best == 80 - t0.adding(-3600).seconds)
    }
}
