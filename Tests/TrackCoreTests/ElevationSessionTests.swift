import Elevation
import SyntheticReceivers
import Testing
import TrackCore

/// Elevation through the whole core, on `ElevatedReceiver`'s hilly courses (true profiles, a
/// receiver's wandering altitude, a barometer under falling pressure).
@Suite struct ElevationSessionTests {
    static func course(_ name: String) -> ElevatedReceiver.Course {
        ElevatedReceiver.courses.first { $0.name == name }!
    }

    @Test func aStandingWearerGainsNothing() {
        let course = Self.course("standing, 5 min")
        for seed: UInt64 in 1...10 {
            let session = ElevatedReceiver.session(course.route.make(seed), profile: course.profile, seed: seed)
            for barometer in [false, true] {
                let track = ElevatedReceiver.replayed(session, activity: course.route.activity, barometer: barometer)
                #expect(track.summary.elevation?.gain == 0, "seed \(seed), barometer \(barometer)")
                #expect(track.summary.elevation?.loss == 0, "seed \(seed), barometer \(barometer)")
            }
        }
    }

    @Test(arguments: ["tempo, rolling", "walk, steep trail", "an hour, one hill", "city, flat"])
    func aBarometersGainIsNearTheTruth(_ name: String) {
        let course = Self.course(name)
        for seed: UInt64 in 1...4 {
            let session = ElevatedReceiver.session(course.route.make(seed), profile: course.profile, seed: seed)
            let track = ElevatedReceiver.replayed(session, activity: course.route.activity, barometer: true)
            let figures = track.summary.elevation
            #expect(figures?.source == .barometer)
            // The weather's fall of 1 hPa an hour reads as 8.5 m of climb an hour, part of it kept.
            #expect(abs((figures?.gain ?? 0) - session.gain) < 0.04 * session.gain + 8, "seed \(seed)")
            #expect(abs((figures?.loss ?? 0) - session.loss) < 0.04 * session.loss + 8, "seed \(seed)")
        }
    }

    /// GPS alone cannot tell a small hill from its own wander; a steep climb it can, and on the flat
    /// its hysteresis holds the wander to tens of metres, against the raw altitudes' thousands.
    @Test func gpsAloneHoldsItsWander() {
        let steep = Self.course("walk, steep trail")
        let flat = Self.course("city, flat")
        for seed: UInt64 in 1...4 {
            let climb = ElevatedReceiver.session(steep.route.make(seed), profile: steep.profile, seed: seed)
            let up = ElevatedReceiver.replayed(climb, activity: steep.route.activity, barometer: false)
            #expect(abs((up.summary.elevation?.gain ?? 0) - climb.gain) < 30, "seed \(seed)")
            #expect(up.summary.elevation?.source == .gps)
            let level = ElevatedReceiver.session(flat.route.make(seed), profile: flat.profile, seed: seed)
            let along = ElevatedReceiver.replayed(level, activity: flat.route.activity, barometer: false)
            #expect((along.summary.elevation?.gain ?? 999) < 90, "seed \(seed)")
        }
    }

    @Test func aReceiverWithoutAltitudeHasNoElevation() {
        let draw = HonestReceiver.tempo(rate: 1, seed: 1)
        #expect(replayed(draw.fixes, activity: .running).summary.elevation == nil)
    }
}
