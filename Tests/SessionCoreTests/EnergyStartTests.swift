import Energy
import SessionCore
import SyntheticReceivers
import Testing
import TrackCore

/// A start's body mass and load over the configured ones, logged with the session so that a
/// recovered session (and an export) costs what the live one did.
@Suite struct EnergyStartTests {
    private func start(
        _ configuration: SessionController.Configuration,
        _ carriage: CarriageOverride
    ) -> (SessionController, SessionOutput) {
        var controller = SessionController(configuration: configuration, ids: SessionIDGenerator(seed: 1))
        var output = SessionOutput()
        _ = controller.handle(
            .start,
            id: "s",
            carriage: carriage,
            receivedAt: 1,
            systemTime: 1_750_000_000,
            into: &output
        )
        return (controller, output)
    }

    private func loggedEnergy(_ output: SessionOutput) -> EnergySettings?? {
        for row in output.rows { if case .begin(_, _, _, _, _, let energy) = row { return .some(energy) } }
        return nil
    }

    @Test func theStartsValuesStandOverTheConfiguredOnes() throws {
        let configured = SessionController.Configuration(
            activity: .walking,
            bodyMass: 70,
            load: 5,
            walkingModel: .pandolf
        )
        let both = try CarriageOverride.checked(bodyMass: 82, load: 25).get()
        let (_, output) = start(configured, both)
        let logged = try #require(loggedEnergy(output) ?? nil)
        #expect(logged.carriage.bodyMass == 82)
        #expect(logged.carriage.load == 25)
        #expect(logged.walking == .pandolf)

        // Only the load: the configured body mass stays.
        let load = try CarriageOverride.checked(bodyMass: nil, load: 30).get()
        let ruck = try #require(loggedEnergy(start(configured, load).1) ?? nil)
        #expect(ruck.carriage.bodyMass == 70)
        #expect(ruck.carriage.load == 30)

        // Nothing said: the configuration's.
        let plain = try #require(loggedEnergy(start(configured, .none).1) ?? nil)
        #expect(plain.carriage.load == 5)
    }

    @Test func noBodyMassAnywhereMeansNoEnergy() throws {
        let load = try CarriageOverride.checked(bodyMass: nil, load: 20).get()
        let (controller, output) = start(.init(activity: .walking), load)
        #expect(loggedEnergy(output) == .some(nil))
        #expect(controller.session?.track.energy == nil)
    }

    @Test func aCarriageOutOfRangeIsRefusedAtTheEdge() {
        #expect(throws: Never.self) { try CarriageOverride.checked(bodyMass: 80, load: 0).get() }
        #expect(CarriageOverride.checked(bodyMass: 800, load: nil) == .failure(.bodyMass(800)))
        #expect(CarriageOverride.checked(bodyMass: nil, load: 121) == .failure(.load(121)))
    }

    @Test func aRecoveredSessionCostsWhatTheLiveOneDid() throws {
        let course = try #require(ElevatedReceiver.courses.first { $0.name == "walk, steep trail" })
        let session = ElevatedReceiver.session(course.route.make(2), profile: course.profile, seed: 2)
        let t0 = try #require(session.fixes.first?.time).seconds
        let configuration = SessionController.Configuration(activity: .walking, bodyMass: 75)
        var controller = SessionController(configuration: configuration, ids: SessionIDGenerator(seed: 1))
        var output = SessionOutput()
        let override = try CarriageOverride.checked(bodyMass: nil, load: 18).get()
        var journal: [SessionController.JournalEntry] = []
        for var fix in session.fixes.prefix(1) {
            fix.receivedAt = 100
            controller.ingest(fix, into: &output)
        }
        _ = controller.handle(.start, id: "go", carriage: override, receivedAt: 100.5, systemTime: 0, into: &output)
        let energy = try #require(loggedEnergy(output) ?? nil)
        journal.append(.command(.start, id: "go"))
        for var fix in session.fixes.dropFirst() {
            guard let time = fix.time else { continue }
            fix.receivedAt = 100 + time.seconds - t0 + 0.2
            var rows = SessionOutput()
            controller.ingest(fix, into: &rows)
            for case .fix(_, _, let logged, _) in rows.rows { journal.append(.fix(logged)) }
        }
        let live = try #require(controller.session?.track.summary.energy)
        #expect(live.joules > 0)
        #expect(live.carriage.load == 18)
        let rebuilt = SessionController(
            recovering: RecoveredSession(
                id: try #require(controller.session?.id),
                activity: .walking,
                startedAt: TimeAnchor(source: .gps, seconds: t0),
                journal: journal,
                nextSeq: 1_000_000,
                energy: energy
            ),
            configuration: .init(activity: .walking),
            ids: SessionIDGenerator(seed: 2),
            restartedAt: 5
        )
        #expect(rebuilt.session?.track.summary.energy == live)
    }
}
