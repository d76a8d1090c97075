import SyntheticReceivers
import Testing

@testable import TrackCore

/// A resume from standing credits only motion that happened: no step credits more than the
/// receiver's own Doppler over the time it covers plus `StepCredits.slack`, however far the
/// receiver's position wandered during the stop.
@Suite struct ResumeCreditTests {
    struct Receiver: CustomTestStringConvertible, Sendable {
        var name: String
        var activity: Activity
        var make: @Sendable (UInt64) -> [Fix]
        var testDescription: String { name }
    }

    static let receivers = [
        Receiver(name: "tempo, 1 Hz", activity: .running) { HonestReceiver.tempo(rate: 1, seed: $0).fixes },
        Receiver(name: "tempo, 10 Hz", activity: .running) { HonestReceiver.tempo(rate: 10, seed: $0).fixes },
        Receiver(name: "track laps", activity: .running) { HonestReceiver.trackLaps(seed: $0).fixes },
        Receiver(name: "track, standing start", activity: .running) {
            HonestReceiver.trackStandingStart(seed: $0).fixes
        },
        Receiver(name: "city, two lights", activity: .running) { HonestReceiver.cityLights(seed: $0).fixes },
        Receiver(name: "walk, four stops", activity: .walking) { HonestReceiver.walkWithStops(seed: $0).fixes },
        Receiver(name: "SiRF-II walk", activity: .walking) { MisreportingReceiver.sirfWalk(seed: $0).fixes },
        Receiver(name: "city run, multipath", activity: .running) { MisreportingReceiver.cityRun(seed: $0).fixes },
    ]

    @Test(arguments: receivers)
    func noStepCreditsMoreThanItsDopplerAndTheSlack(_ receiver: Receiver) {
        for seed: UInt64 in 1...12 {
            let credits = StepCredits(receiver.make(seed), activity: receiver.activity, slack: StepCredits.slack)
            let over = credits.over.map { "\($0.credited) m against \($0.doppler) m at \($0.time)" }
            #expect(over.isEmpty, "seed \(seed): \(over)")
        }
    }

    /// The wearer stands 40 s while a quiet receiver's position (eph 4 m) walks 7 m away at 0.175 m/s (its
    /// Doppler reading 0; inside the radius leaving is judged by), then runs off at 3.5 m/s: the
    /// resume is credited the run, not the walk of the bias, and the session's total is the run's.
    @Test func aStopsDriftIsNotPaidWhenTheWearerMovesOff() {
        let legs = [
            Route.Leg(heading: 90, speed: 0, duration: 40, turn: 0),
            Route.Leg(heading: 90, speed: 3.5, duration: 60, turn: 2),
        ]
        let (states, truth) = Route.sample(legs, rate: 1)
        let frame = LocalFrame(origin: HonestReceiver.origin)
        let fixes = states.enumerated().map { i, state in
            let drift = 0.175 * Double(min(i, 40))
            return Fix(
                mode: 3,
                time: HonestReceiver.start.adding(Double(i)),
                position: frame.unproject(LocalPoint(east: state.east, north: state.north - drift)),
                errorEast: 3,
                errorNorth: 3,
                horizontalError: 4.2,
                speed: state.speed,
                track: state.speed > 0.3 ? state.heading : nil,
                speedError: 0.77
            )
        }
        let credits = StepCredits(fixes, activity: .running, slack: StepCredits.slack)
        let largest = credits.worst.map { $0.excess } ?? 0
        #expect(largest < 1, "a step credited \(largest) m beyond the Doppler")
        let distance = replayed(fixes, activity: .running).distance
        #expect(abs(distance - truth) < 2, "\(distance) m for a \(truth) m run")
    }

    /// The detector itself: standing by the filter and by the Doppler, a position that wanders 7 m
    /// (inside the radius that leaving is judged by) is followed, not measured from where the stop
    /// began; leaving then credits the Doppler, not the 7 m.
    @Test func theAnchorFollowsTheBiasWhileTheDopplerSaysStanding() {
        let origin = GeoPoint(latitude: 48.137, longitude: 11.575)
        let frame = LocalFrame(origin: origin)
        var detector = StillnessDetector(profile: .running, anchor: origin, sigma: 2)
        var credited = 0.0
        var north = 0.0
        func step(_ t: Double, speed: Double, doppler: Double, moved: Double) {
            north += moved
            credited += detector.step(
                time: GPSTime(seconds: t),
                dt: 1,
                speed: speed,
                velocity: LocalPoint(east: 0, north: speed),
                increment: speed,
                position: frame.unproject(LocalPoint(east: 0, north: north)),
                sigma: 2,
                significant: doppler > 1,
                coherence: nil,
                dopplerSpeed: nil,
                measuredSpeed: doppler,
                displacement: { frame.project($0).distance(to: LocalPoint(east: 0, north: north)) }
            )
        }
        for t in 1...50 { step(Double(t), speed: 0.1, doppler: 0, moved: 0.14) }
        #expect(detector.isStill)
        #expect(credited == 0)
        // Off at 3.5 m/s: the first fix already 3.5 m from the last standing point.
        for t in 51...55 { step(Double(t), speed: 3.5, doppler: 3.5, moved: 3.5) }
        #expect(!detector.isStill)
        #expect(credited > 10 && credited < 3.5 * 5 + 2, "\(credited) m for 17.5 m run")
    }
}
