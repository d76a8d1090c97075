import Foundation
import Testing

@testable import Elevation

@Suite struct ElevationTrackTests {
    @Test func theStandardAtmosphere() {
        #expect(abs(BarometricAltitude.altitude(pressure: 101.325)) < 1e-9)
        // ICAO's table: 89.876 kPa at 1000 m, 79.501 kPa at 2000 m.
        #expect(abs(BarometricAltitude.altitude(pressure: 89.876) - 1000) < 1)
        #expect(abs(BarometricAltitude.altitude(pressure: 79.501) - 2000) < 1)
        #expect(abs(BarometricAltitude.pressure(altitude: 1234) - 87.3) < 0.1)
        #expect(!BarometricAltitude.plausible(1013.25))  // hPa mistaken for kPa
        #expect(!BarometricAltitude.plausible(.nan))
    }

    @Test func aReceiversVerticalErrorIsJudged() {
        let judge = VerticalError()
        #expect(judge.sigma(epv: 20, eph: 5) == 10)
        #expect(judge.sigma(epv: nil, eph: 20) == 15)
        #expect(judge.sigma(epv: 0, eph: nil) == judge.unknown)
        #expect(judge.sigma(epv: 0.2, eph: nil) == judge.floor)
        #expect(judge.sigma(epv: 9999, eph: nil) == judge.ceiling)
        #expect(judge.sigma(epv: -.infinity, eph: .nan) == judge.unknown)
    }

    @Test func aGradeIsRiseOverRun() {
        var window = GradeWindow(span: 40)
        for d in stride(from: 0.0, through: 30, by: 2) { window.add(distance: d, altitude: 100 + 0.06 * d) }
        #expect(window.grade == nil)
        for d in stride(from: 32.0, through: 200, by: 2) { window.add(distance: d, altitude: 100 + 0.06 * d) }
        #expect(abs((window.grade ?? 0) - 0.06) < 1e-9)
        window.add(distance: 201, altitude: 500)  // under the spacing on: not a new sample
        #expect(abs((window.grade ?? 0) - 0.06) < 1e-9)
    }

    /// A barometer whose standard-atmosphere altitude is 83 m off the receiver's: the level is
    /// learnt from GPS, and learning it is no climb.
    @Test func theBarometersLevelIsLearntWithoutClimbing() {
        var track = ElevationTrack()
        let truth = 50.0
        let offset = 83.0
        var seed: UInt64 = 7
        for t in 0..<1800 {
            let time = Double(t)
            let distance = 3.5 * time
            track.gps(
                altitude: truth + 4 * gaussian(&seed),
                epv: 20,
                eph: 12,
                at: time,
                distance: distance,
                moving: true
            )
            let kilopascal = BarometricAltitude.pressure(altitude: truth + offset + 0.1 * gaussian(&seed))
            track.pressure(kilopascal, at: time + 0.5, distance: distance, moving: true)
        }
        #expect(track.source == .barometer)
        #expect(abs((track.altitude ?? 0) - truth) < 5)
        // The receiver's noise, taken into the level once it is learnt, against the 83 m learnt.
        #expect(track.gain < 4)
        #expect(track.loss < 4)
        #expect(abs(track.grade ?? 1) < 0.01)
    }

    @Test func standingGainsNothing() {
        var track = ElevationTrack()
        var seed: UInt64 = 3
        for t in 0..<600 {
            let time = Double(t)
            // A receiver's altitude wandering by 30 m, a barometer drifting with a storm.
            track.gps(
                altitude: 100 + 30 * sin(time / 60) + gaussian(&seed),
                epv: 30,
                eph: 20,
                at: time,
                distance: 0,
                moving: false
            )
            track.pressure(
                BarometricAltitude.pressure(altitude: 100 + time * 0.01),
                at: time + 0.5,
                distance: 0,
                moving: false
            )
        }
        #expect(track.gain == 0)
        #expect(track.loss == 0)
    }

    @Test func pressuresNoBarometerReadsAreSetAside() {
        var track = ElevationTrack()
        track.gps(altitude: 10, epv: 10, eph: 5, at: 0, distance: 0, moving: true)
        track.pressure(1013.25, at: 1, distance: 0, moving: true)
        track.pressure(-.infinity, at: 2, distance: 0, moving: true)
        track.gps(altitude: .nan, epv: 10, eph: 5, at: 3, distance: 0, moving: true)
        track.gps(altitude: 1e7, epv: 10, eph: 5, at: 4, distance: 0, moving: true)
        #expect(track.rejectedPressures == 2)
        #expect(track.rejectedAltitudes == 2)
        #expect(track.source == .gps)
    }

    /// A barometer that jumps (a sensor reset to another oversampling, a leak): set aside, then
    /// its offset learnt again, and the jump never counted.
    @Test func aBarometerThatJumpsIsLearntAgainNotClimbed() {
        var track = ElevationTrack()
        for t in 0..<400 {
            let time = Double(t)
            track.gps(altitude: 50, epv: 10, eph: 6, at: time, distance: 3 * time, moving: true)
            let level = t < 200 ? 50.0 : 350.0
            track.pressure(
                BarometricAltitude.pressure(altitude: level),
                at: time + 0.5,
                distance: 3 * time,
                moving: true
            )
        }
        #expect(track.rejectedPressures >= 10)
        #expect(track.gain < 1)
        #expect(abs((track.altitude ?? 0) - 50) < 3)
    }

    private func gaussian(_ state: inout UInt64) -> Double {
        func uniform() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        let u = max(uniform(), 1e-300)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * uniform())
    }
}
