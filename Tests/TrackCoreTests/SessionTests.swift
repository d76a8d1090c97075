import Testing

@testable import TrackCore

/// The whole path of a fix, on sessions whose true distance is known by construction.
@Suite struct SessionTests {
    @Test func aStraightLineAt3MetresPerSecond() {
        var gen = Synthetic(noise: 2, dopplerNoise: 0.1)
        let (fixes, truth) = gen.fixes(duration: 600) { t in (3 * t, 0) }
        let session = run(fixes)
        #expect(abs(truth - 1800) < 0.01)
        #expect(abs(session.distance - truth) / truth < 0.01)
        #expect(session.splits.count == 1)
        #expect(abs(session.splits[0].duration - 1000.0 / 3) < 5)
        #expect(session.elapsed == 600 && session.pausedTime < 5)
    }

    @Test func fiveLapsOfA400MetreTrack() {
        var gen = Synthetic(noise: 2.5, dopplerNoise: 0.1, eph: 18)
        let speed = 4.0
        let (fixes, truth) = gen.fixes(duration: 5 * RunningTrack.lap / speed) { t in
            RunningTrack.position(atDistance: speed * t)
        }
        #expect(abs(RunningTrack.lap - 400) < 0.1)
        #expect(abs(truth - 2000) < 1)
        let session = run(fixes)
        #expect(abs(session.distance - truth) / truth < 0.01)
    }

    @Test func aCloudOfFixesAroundOnePointAddsAlmostNothing() {
        var gen = Synthetic(noise: 4, dopplerNoise: 0.15, eph: 20)
        let (fixes, _) = gen.fixes(duration: 1800) { _ in (0, 0) }
        let session = run(fixes, activity: .walking)
        #expect(session.distance < 5)
        #expect(session.isAutoPaused)
        #expect(session.movingTime < 10)
    }

    @Test func withoutDopplerACloudStillAddsNothingAndAWalkStillCounts() {
        var gen = Synthetic(noise: 3, eph: 8)
        var (cloud, _) = gen.fixes(duration: 600) { _ in (0, 0) }
        for i in cloud.indices {
            cloud[i].speed = nil
            cloud[i].track = nil
        }
        #expect(run(cloud, activity: .walking).distance < 5)

        var (walk, truth) = gen.fixes(duration: 900) { t in (1.3 * t, 0) }
        for i in walk.indices {
            walk[i].speed = nil
            walk[i].track = nil
        }
        let distance = run(walk, activity: .walking).distance
        // Known limitation: speed from 3 m position noise alone reads ~6% high at walking pace
        // (|v| of a noisy vector is biased); every receiver in the benchmarks sends Doppler.
        #expect(abs(distance - truth) / truth < 0.08)
    }

    @Test func anOutageIsBridgedWithoutPhantomDistance() {
        var gen = Synthetic(noise: 2, dopplerNoise: 0.1)
        var (fixes, truth) = gen.fixes(duration: 600) { t in (3 * t, 0) }
        for i in 200..<230 {
            fixes[i].mode = 1
            fixes[i].position = nil
        }
        var session = TrackSession(activity: .running)
        var events: [TrackEvent] = []
        for fix in fixes { events += session.ingest(fix).events }
        #expect(abs(session.distance - truth) / truth < 0.01)
        #expect(session.rejected[.noFix] == 30)
        #expect(session.gpsLossCount == 1)
        #expect(!session.isAutoPaused)
        #expect(events.contains { if case .gapBridged = $0 { true } else { false } })
        #expect(events.contains { if case .gpsRegained = $0 { true } else { false } })
    }

    /// A rider slows from 6.8 to 5 m/s in a 26 s outage on a straight road and comes out at 6:
    /// the end speeds' integral says 173 m, the road was 137 m, and the directions at both ends
    /// say it ran straight, so the chord is credited.
    @Test func anOutageOnAStraightRoadIsCreditedItsChordWhateverTheEndSpeedsSay() {
        var gen = Synthetic(noise: 1.5, dopplerNoise: 0.1, eph: 4)
        var (fixes, truth) = gen.fixes(duration: 400) { t in
            let s = t < 200 ? 6.8 * t : (t < 226 ? 1360 + 5 * (t - 200) : 1490 + 6 * (t - 226))
            return (0, s)
        }
        for i in 200..<226 {
            fixes[i].mode = 1
            fixes[i].position = nil
        }
        let integral = 0.5 * (fixes[199].speed! + fixes[226].speed!) * 27
        let session = run(fixes, activity: .cycling)
        #expect(session.bridgedGapCount == 1)
        #expect(integral - 137 > 30, "the end speeds' integral \(integral) m")
        #expect(abs(session.distance - truth) < 4, "\(session.distance) m of \(truth) m")
    }

    /// The same outage across a right-angled corner at a steady 5 m/s: the chord is 29 % short,
    /// and the directions at both ends allow the two legs, so the speeds' integral is credited.
    @Test func anOutageAcrossACornerIsCreditedTheSpeedsIntegral() {
        var gen = Synthetic(noise: 1.5, dopplerNoise: 0.1, eph: 4)
        var (fixes, truth) = gen.fixes(duration: 400) { t in
            t < 213 ? (5 * t, 0) : (1065, 5 * (t - 213))
        }
        for i in 200..<226 {
            fixes[i].mode = 1
            fixes[i].position = nil
        }
        let session = run(fixes, activity: .cycling)
        #expect(session.bridgedGapCount == 1)
        #expect(abs(session.distance - truth) / truth < 0.005, "\(session.distance) m of \(truth) m")
    }

    @Test func aLongOutageWhileStandingAddsNothing() {
        var gen = Synthetic(noise: 3, dopplerNoise: 0.1)
        var (fixes, _) = gen.fixes(duration: 900) { _ in (0, 0) }
        for i in 100..<700 { fixes[i].mode = 1 }
        #expect(run(fixes, activity: .walking).distance < 5)
    }

    @Test func multipathExcursionsAreOutliers() {
        var gen = Synthetic(noise: 1.5, dopplerNoise: 0.1, eph: 5)
        var (fixes, truth) = gen.fixes(duration: 900) { t in (3 * t, 0) }
        let frame = LocalFrame(origin: gen.origin)
        for i in stride(from: 100, to: 800, by: 97) {
            for j in i..<(i + 4) {
                var p = frame.project(fixes[j].position!)
                p.north += 30
                fixes[j].position = frame.unproject(p)
            }
        }
        let session = run(fixes)
        #expect(abs(session.distance - truth) / truth < 0.01)
        #expect((session.rejected[.outlier] ?? 0) >= 20)
    }

    @Test func aReceiverStuckAtSpeedZeroWhileMovingIsNotBelieved() {
        // A real receiver (gpsd's bundg_zeus_9) sends `speed: 0` in some epochs while moving at 3 m/s.
        var gen = Synthetic(noise: 2, dopplerNoise: 0.1)
        var (fixes, truth) = gen.fixes(duration: 600) { t in (3 * t, 0) }
        for i in stride(from: 20, to: fixes.count, by: 7) {
            fixes[i].speed = 0
            if i % 2 == 0 { fixes[i].track = nil }
        }
        let session = run(fixes)
        #expect(abs(session.distance - truth) / truth < 0.01)
        #expect(session.autoPauseCount == 0)
    }

    /// A start from standing straight to running pace: the filter meets its first Doppler as an
    /// outlier, so a departure counted from the filter alone comes out strides short; it is
    /// credited at least the Doppler integral since the receiver last read standing.
    @Test func aStartFromStandingCountsItsFirstStrides() {
        for seed: UInt64 in [7, 8, 9] {
            var gen = Synthetic(noise: 2, dopplerNoise: 0.1, eph: 18, rng: TestRandom(seed: seed))
            let (fixes, truth) = gen.fixes(duration: 80) { t in (t < 19.5 ? 0 : 4 * (t - 19.5), 0) }
            #expect(abs(truth - 242) < 0.01)
            let session = run(fixes)
            #expect(abs(session.distance - truth) < 1.5, "seed \(seed): \(session.distance) m of \(truth) m")
        }
    }

    @Test func stoppingAtALightPausesAndResumes() {
        var gen = Synthetic(noise: 2, dopplerNoise: 0.1)
        let (fixes, truth) = gen.fixes(duration: 400) { t in
            t < 150 ? (3 * t, 0) : t < 210 ? (450, 0) : (450 + 3 * (t - 210), 0)
        }
        let session = run(fixes)
        #expect(abs(session.distance - truth) / truth < 0.01)
        #expect(session.autoPauseCount == 1)
        #expect(abs(session.pausedTime - 60) < 6)
        #expect(abs(session.movingTime - 340) < 6)
    }

    // MARK: Properties

    @Test func aReversedTrackHasTheSameDistance() {
        var gen = Synthetic(noise: 2, dopplerNoise: 0.1, eph: 6)
        let (fixes, _) = gen.fixes(duration: 700) { t in RunningTrack.position(atDistance: 3.5 * t) }
        var reversed = fixes
        let positions = fixes.map(\.position).reversed()
        for (i, p) in positions.enumerated() {
            reversed[i].position = p
            reversed[i].track = fixes[fixes.count - 1 - i].track.map { ($0 + 180).truncatingRemainder(dividingBy: 360) }
        }
        let forward = run(fixes).distance
        let backward = run(reversed).distance
        #expect(abs(forward - backward) / forward < 0.005)
    }

    @Test func duplicatingEveryEpochChangesNothing() {
        var gen = Synthetic(noise: 2, dopplerNoise: 0.1)
        let (fixes, _) = gen.fixes(duration: 300) { t in (3 * t, 0.5 * t) }
        let doubled = fixes.flatMap { [$0, $0] }
        let a = run(fixes)
        let b = run(doubled)
        #expect(a.distance == b.distance)
        #expect(a.elapsed == b.elapsed && a.movingTime == b.movingTime)

        // Without the merger the gate drops the copies, with the same result.
        var session = TrackSession(activity: .running)
        for fix in doubled { _ = session.ingest(fix) }
        #expect(session.distance == a.distance)
        #expect(session.rejected[.duplicateEpoch] == fixes.count)
    }

    @Test func shiftingAllTimesByYearsChangesNothing() {
        var gen = Synthetic(noise: 2, dopplerNoise: 0.1)
        let (fixes, _) = gen.fixes(duration: 600) { t in RunningTrack.position(atDistance: 3.2 * t) }
        let reference = run(fixes)
        for years in [-20.0, 7.0] {
            let shifted = fixes.map { f -> Fix in
                var f = f
                f.time = f.time!.adding(years * 365.25 * 86_400)
                return f
            }
            let session = run(shifted)
            #expect(abs(session.distance - reference.distance) < 1e-3)
            #expect(abs(session.movingTime - reference.movingTime) < 1e-3)
            #expect(session.splits.count == reference.splits.count)
        }
    }

    @Test func heartRateSamplesFeedTheSessionStats() {
        var session = TrackSession(activity: .running, heartRateZones: HeartRateZones(maxHeartRate: 190))
        for i in 0..<60 { session.heartRate(bpm: 140 + i % 3, at: Double(i)) }
        let hr = session.summary.heartRate
        #expect(hr?.samples == 60 && hr?.maximum == 142)
        #expect(abs(hr!.timeInZone.reduce(0, +) - 59) < 1e-9)
    }
}
