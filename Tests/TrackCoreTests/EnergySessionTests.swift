import Energy
import SyntheticReceivers
import Testing
import TrackCore

/// Energy through the whole core: the moving time costed by the model at the filter's speed and
/// the elevation's grade, against the same model on the true way.
@Suite struct EnergySessionTests {
    static let rucker = try! Carriage.checked(bodyMass: 80, load: 20).get()

    static func course(_ name: String) -> ElevatedReceiver.Course {
        ElevatedReceiver.courses.first { $0.name == name }!
    }

    /// A ruck up and down a steep trail with a barometer: within 5 % of the model on the true way.
    @Test(arguments: [WalkingModel.lcda, .pandolf])
    func aRuckIsCostedNearItsTrueWay(_ model: WalkingModel) throws {
        let course = Self.course("walk, steep trail")
        for seed: UInt64 in 1...3 {
            let session = ElevatedReceiver.session(course.route.make(seed), profile: course.profile, seed: seed)
            let track = ElevatedReceiver.replayed(
                session,
                activity: .walking,
                barometer: true,
                energy: EnergySettings(carriage: Self.rucker, walking: model)
            )
            let energy = try #require(track.summary.energy)
            let truth = session.trueEnergy(model.model, carriage: Self.rucker)
            #expect(energy.model == model.model)
            #expect(abs(energy.joules / truth - 1) < 0.05, "seed \(seed): \(energy.joules) J against \(truth) J")
        }
    }

    /// The grade matters: the same walk costed as level reads well below the hilly truth.
    @Test func theHillIsPaidFor() throws {
        let course = Self.course("walk, steep trail")
        let session = ElevatedReceiver.session(course.route.make(1), profile: course.profile, seed: 1)
        let settings = EnergySettings(carriage: Self.rucker)
        let hilly = try #require(
            ElevatedReceiver.replayed(session, activity: .walking, barometer: true, energy: settings).summary.energy
        )
        let level = session.trueEnergy(.lcda, carriage: Self.rucker)
        var flat = session
        flat.profile = .flat
        let levelTruth = flat.trueEnergy(.lcda, carriage: Self.rucker)
        #expect(hilly.joules > 1.15 * levelTruth, "\(hilly.joules) J against \(levelTruth) J level")
        #expect(level > levelTruth)
    }

    @Test func aRunIsCostedByTheRunningEquation() throws {
        let draw = HonestReceiver.tempo(rate: 1, seed: 2)
        var track = TrackSession(activity: .running, energy: EnergySettings(carriage: Self.rucker))
        for fix in draw.fixes { _ = track.ingest(fix) }
        let energy = try #require(track.summary.energy)
        #expect(energy.model == .acsmRunning)
        // Level: VO2 = 3.5 + 0.2·S mL/kg/min over the moving time, at 5 kcal/L, body and load.
        let moving = track.movingTime
        let speed = track.distance / moving
        let expected = (3.5 + 0.2 * speed * 60) * 100 / 1000 * 5 * moving / 60 * 4184
        #expect(abs(energy.joules / expected - 1) < 0.01, "\(energy.joules) against \(expected)")
    }

    @Test func withoutABodyMassOrOnABikeThereIsNoEnergy() {
        let draw = HonestReceiver.tempo(rate: 1, seed: 3)
        var unknown = TrackSession(activity: .running)
        var ride = TrackSession(activity: .cycling, energy: EnergySettings(carriage: Self.rucker))
        for fix in draw.fixes {
            _ = unknown.ingest(fix)
            _ = ride.ingest(fix)
        }
        #expect(unknown.summary.energy == nil)
        #expect(ride.summary.energy == nil)
    }

    /// A manual pause costs nothing: the energy grows only with the moving time.
    @Test func aPauseCostsNothing() throws {
        let draw = HonestReceiver.tempo(rate: 1, seed: 4)
        var track = TrackSession(activity: .running, energy: EnergySettings(carriage: Self.rucker))
        let half = draw.fixes.count / 2
        for fix in draw.fixes[..<half] { _ = track.ingest(fix) }
        let before = try #require(track.energy).joules
        track.pauseByCommand()
        for fix in draw.fixes[half..<(half + 120)] { _ = track.ingest(fix) }
        #expect(try #require(track.energy).joules == before)
        track.resumeByCommand()
        for fix in draw.fixes[(half + 120)...] { _ = track.ingest(fix) }
        #expect(try #require(track.energy).joules > before)
    }
}
