import Testing

@testable import TrackCore

@Suite struct FilterAndStagesTests {
    @Test func axisFilterConvergesOnAConstantVelocity() {
        var filter = AxisFilter(position: 0, positionVariance: 25, velocity: 0, velocityVariance: 4)
        for i in 1...60 {
            filter.predict(dt: 1, q: 0.5)
            filter.updatePosition(3 * Double(i), variance: 9)
        }
        #expect(abs(filter.velocity - 3) < 0.1)
        #expect(abs(filter.position - 180) < 1)
    }

    /// A departure is credited the Doppler integral since the receiver last read standing, not
    /// what it read while moving: a stop the filter sees while the Doppler still reads walking pace
    /// starts the count afresh, so the next departure is not paid the whole walk again.
    @Test func aDepartureIsNotPaidTheDistanceWalkedBeforeTheStop() {
        let here = GeoPoint(latitude: 48.137, longitude: 11.575)
        var detector = StillnessDetector(profile: .walking, anchor: here, sigma: 1)
        var credited = 0.0
        func step(_ t: Double, filterSpeed: Double, doppler: Double) {
            credited += detector.step(
                time: GPSTime(seconds: t),
                dt: 1,
                speed: filterSpeed,
                velocity: LocalPoint(east: filterSpeed, north: 0),
                increment: filterSpeed,
                position: here,
                sigma: 1,
                significant: true,
                coherence: nil,
                dopplerSpeed: nil,
                measuredSpeed: doppler,
                displacement: { _ in 0 }
            )
        }
        // Away at 1.2 m/s for 100 s (the departure and the walk credited as they go).
        for t in 1...100 { step(Double(t), filterSpeed: 1.2, doppler: 1.2) }
        let walked = credited
        // The filter stops; the Doppler keeps reading walking pace.
        var t = 101.0
        while !detector.isStill {
            step(t, filterSpeed: 0, doppler: 1.2)
            t += 1
        }
        let beforeDeparture = credited
        // Off again: confirmed after the dwell, credited only what was covered since the stop.
        for _ in 0..<5 {
            step(t, filterSpeed: 1.2, doppler: 1.2)
            t += 1
        }
        #expect(walked > 100)
        #expect(!detector.isStill)
        #expect(credited - beforeDeparture < 10, "\(credited - beforeDeparture) m credited for the departure")
    }

    @Test func epochMergerFoldsLaterReportsOfAnEpochIntoTheFirst() {
        var merger = EpochMerger()
        var out: [Fix] = []
        let t = GPSTime(seconds: 100)
        let p = GeoPoint(latitude: 10, longitude: 10)
        merger.add(Fix(mode: 3, time: t, position: p, speed: 0)) { out.append($0) }
        merger.add(Fix(mode: 3, time: t, position: p, errorEast: 7, errorNorth: 8, speedError: 17)) { out.append($0) }
        #expect(out.isEmpty)
        merger.add(Fix(mode: 3, time: t.adding(1), position: p)) { out.append($0) }
        #expect(out.count == 1)
        #expect(out[0].speed == 0 && out[0].errorEast == 7 && out[0].speedError == 17)
        #expect(merger.flush()?.time == t.adding(1))
        #expect(merger.mergedCount == 1)
    }

    @Test func autoPausePausesAtATrafficLightAndBackdatesBothEdges() {
        var pause = AutoPause(profile: .running)
        let t0 = GPSTime(seconds: 0)
        var transitions: [AutoPause.Transition] = []
        let speeds =
            Array(repeating: 3.0, count: 10) + Array(repeating: 0.2, count: 30) + Array(repeating: 3.0, count: 10)
        for (i, v) in speeds.enumerated() {
            if let t = pause.update(time: t0.adding(Double(i)), speed: v) { transitions.append(t) }
        }
        #expect(transitions == [.paused(at: t0.adding(10)), .resumed(at: t0.adding(40), pausedFor: 30)])
    }

    @Test func aSlowSteepClimbDoesNotPauseAndABriefSlowdownDoesNot() {
        var pause = AutoPause(profile: .running)
        for i in 0..<300 {
            let v = i % 50 < 3 ? 0.5 : 1.2  // 1.2 m/s uphill, with 3 s stumbles
            #expect(pause.update(time: GPSTime(seconds: Double(i)), speed: v) == nil)
        }
    }

    @Test func splitsInterpolateTheBoundary() {
        var splits = SplitTracker(length: 1000)
        #expect(splits.update(distance: 900, timer: 300).isEmpty)
        let done = splits.update(distance: 1100, timer: 340)
        #expect(done.count == 1)
        #expect(abs(done[0].duration - 320) < 1e-9)
        let more = splits.update(distance: 3050, timer: 1000)
        #expect(more.map(\.index) == [2, 3])
        #expect(abs(more.map(\.duration).reduce(0, +) + 320 - more[1].endTimer) < 1e-9)
    }

    @Test func heartRateZonesAndTimeInZone() {
        let zones = HeartRateZones(maxHeartRate: 200)
        #expect(zones.zone(for: 90) == 0)
        #expect(zones.zone(for: 100) == 1)
        #expect(zones.zone(for: 159) == 3)
        #expect(zones.zone(for: 185) == 5)
        var stats = HeartRateStats(zones: zones, maxHold: 5)
        stats.add(bpm: 150, at: 0)  // zone 3
        stats.add(bpm: 170, at: 2)  // zone 4
        stats.add(bpm: 0, at: 3)  // invalid: no sentinel zeros
        stats.add(bpm: 172, at: 60)  // after a dropout: only 5 s held
        #expect(stats.timeInZone[3] == 2)
        #expect(stats.timeInZone[4] == 5)
        #expect(stats.maximum == 172 && stats.invalidCount == 1 && stats.sampleCount == 3)
        #expect(abs(stats.average! - 164) < 1e-9)
    }

    @Test func simplifierReducesAStraightLineAndStaysBounded() {
        var track = TrackSimplifier(tolerance: 2, chunkSize: 64, maxPoints: 100)
        let frame = LocalFrame(origin: GeoPoint(latitude: 45, longitude: 7))
        var rng = TestRandom(seed: 3)
        for i in 0..<5000 {
            let p = frame.unproject(LocalPoint(east: Double(i) * 3, north: rng.gaussian() * 0.3))
            track.append(TrackPoint(time: GPSTime(seconds: Double(i)), position: p))
        }
        #expect(track.points.count < 120)
        // A zig-zag of 20 m never reduces below its corners.
        var zigzag = TrackSimplifier(tolerance: 2)
        for i in 0..<100 {
            let p = frame.unproject(LocalPoint(east: Double(i) * 10, north: i % 2 == 0 ? 0 : 20))
            zigzag.append(TrackPoint(time: GPSTime(seconds: Double(i)), position: p))
        }
        #expect(zigzag.points.count == 100)
    }
}
