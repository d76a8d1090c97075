import SessionCore
import SyntheticReceivers
import Testing
import TrackCore

/// A barometer's readings are logged with the GPS time they were taken at, so that a session
/// rebuilt from its log after a crash climbs exactly what the live one did.
@Suite struct ElevationRecoveryTests {
    @Test func aRecoveredSessionHasTheLiveOnesElevation() throws {
        let course = try #require(ElevatedReceiver.courses.first { $0.name == "walk, steep trail" })
        let session = ElevatedReceiver.session(course.route.make(3), profile: course.profile, seed: 3)
        let t0 = try #require(session.fixes.first?.time).seconds
        var controller = SessionController(
            configuration: .init(activity: .walking, autostart: true),
            ids: SessionIDGenerator(seed: 1)
        )
        var journal: [SessionController.JournalEntry] = []
        var next = 0
        for var fix in session.fixes {
            guard let time = fix.time else { continue }
            fix.receivedAt = 100 + time.seconds - t0 + 0.2
            var output = SessionOutput()
            controller.ingest(fix, into: &output)
            while next < session.pressures.count, session.pressures[next].time <= time {
                let reading = session.pressures[next]
                let sample = PressureSample(
                    kilopascal: reading.kilopascal,
                    receivedAt: 100 + reading.time.seconds - t0 + 0.4
                )
                controller.pressure(sample, into: &output)
                next += 1
            }
            for row in output.rows {
                switch row {
                case .fix(_, _, let fix, _): journal.append(.fix(fix))
                case .pressure(_, _, let sample): journal.append(.pressure(sample))
                default: break
                }
            }
        }
        let live = try #require(controller.session?.track.summary.elevation)
        #expect(live.source == .barometer)
        #expect(abs(live.gain - session.gain) < 5)
        #expect(journal.contains { if case .pressure(let sample) = $0 { sample.time != nil } else { false } })
        let id = try #require(controller.session?.id)
        let rebuilt = SessionController(
            recovering: RecoveredSession(
                id: id,
                activity: .walking,
                startedAt: TimeAnchor(source: .gps, seconds: t0),
                journal: journal,
                nextSeq: 1_000_000
            ),
            configuration: .init(activity: .walking, autostart: true),
            ids: SessionIDGenerator(seed: 2),
            restartedAt: 5
        )
        #expect(rebuilt.session?.track.summary.elevation == live)
    }
}
