import SyntheticReceivers
import Testing

@testable import TrackCore

/// Receivers that misreport their own error or Doppler, synthesized from what real hardware did:
/// the core judges their numbers rather than obeying them.
@Suite struct MisreportingReceiverTests {
    @Test func aWalkOnAReceiverThatOverReportsItsErrorCounts() {
        let (fixes, truth) = MisreportingReceiver.sirfWalk()
        #expect(truth > 44 && truth < 52)
        let session = run(fixes, activity: .walking)
        // Before: 0 m, half the fixes rejected as horizontal_error, max speed 0.
        #expect(abs(session.distance - truth) / truth < 0.15, "\(session.distance) m of \(truth) m")
        #expect(session.rejected[.horizontalError] == nil)
        #expect(session.maxSpeed > 1)
        #expect(
            session.movingTime > 30 && session.movingTime < 55,
            "moving \(session.movingTime) s, \(session.autoPauseCount) pauses"
        )
    }

    @Test(arguments: [Activity.walking, .running, .cycling])
    func aPhoneOnADeskWithRandomDopplerDoesNotTravel(activity: Activity) {
        for seed: UInt64 in [11, 12, 13] {
            let session = run(MisreportingReceiver.phoneOnDesk(seconds: 180, seed: seed), activity: activity)
            // Before: about 100-250 m in three minutes, every metre phantom.
            #expect(session.distance < 5, "\(activity) seed \(seed): \(session.distance) m")
        }
    }

    /// A still receiver loses its fix for 30 s and comes back 25 m away, its Doppler still
    /// carrying 1 m/s the same way for a few seconds (its own extrapolation) before decaying:
    /// nothing is credited. A wearer who really set off during the outage keeps going, leaves the
    /// new standing point, and gets the bridged distance.
    @Test func aDepartureAcrossAGapNeedsPositionsToConfirmIt() {
        let frame = LocalFrame(origin: MisreportingReceiver.origin)
        func fix(_ t: Int, east: Double, speed: Double, mode: Int = 3) -> Fix {
            Fix(
                mode: mode,
                time: MisreportingReceiver.start.adding(Double(t)),
                position: frame.unproject(LocalPoint(east: east, north: 0)),
                horizontalError: 20 + Double(t % 3),
                speed: speed,
                track: speed > 0.2 ? 290 + Double(t % 7) : nil,
                speedError: 0.5
            )
        }
        var reacquired: [Fix] = (0..<60).map { fix($0, east: 0.3 * Double($0 % 3), speed: 0.05) }
        reacquired += (60..<90).map { fix($0, east: 0, speed: 0, mode: 1) }
        reacquired += (90..<94).map { fix($0, east: -25 - 0.8 * Double($0 - 90), speed: 1.0) }
        reacquired += (94..<160).map {
            fix($0, east: -28 + 0.2 * Double($0 % 2), speed: max(0.05, 0.6 - 0.1 * Double($0 - 94)))
        }
        #expect(run(reacquired, activity: .walking).distance < 5)

        var walked: [Fix] = (0..<60).map { fix($0, east: 0.3 * Double($0 % 3), speed: 0.05) }
        walked += (60..<90).map { fix($0, east: 0, speed: 0, mode: 1) }
        walked += (90..<150).map { fix($0, east: -25 - 1.2 * Double($0 - 90), speed: 1.2) }
        // 25 m across the gap (the chord) and 59 s at 1.2 m/s after it.
        let distance = run(walked, activity: .walking).distance
        #expect(abs(distance - (25 + 1.2 * 59)) < 6, "\(distance) m")
    }

    @Test func dopplerCarriesTheDistanceThroughRejectedPositions() {
        let (fixes, truth) = MisreportingReceiver.cityRun()
        let session = run(fixes, activity: .running)
        #expect(truth > 4700 && truth < 5100)
        #expect((session.rejected[.horizontalError] ?? 0) > 30)
        // Before: all six bursts were bridged by chords, short on corners and lost on the
        // turnaround. Now only the one across the light's restart is: a runner standing at the
        // light does not leave on Doppler alone, and later positions confirm the departure.
        #expect(session.bridgedGapCount == 1)
        #expect(abs(session.distance - truth) / truth < 0.001, "\(session.distance) m of \(truth) m")
    }
}
