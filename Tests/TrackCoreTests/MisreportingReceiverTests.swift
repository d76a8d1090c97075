import Testing

@testable import TrackCore

/// Issue 13: receivers that misreport their own error or Doppler, synthesized from what real
/// hardware did. Each of these failed before the core judged the receiver's numbers.
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
