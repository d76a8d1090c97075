import SessionCore
import SpeedSensors
import Testing
import TrackCore

/// Indoor sessions in the session logic: started by command, their distance from the configured
/// sensor, every sample logged, rebuilt the same from the log after a crash.
@Suite("Indoor sessions in the controller")
struct IndoorSessionTests {
    static let treadmill = SessionController.Configuration(indoorSource: .treadmill)

    /// A treadmill at `speed` m/s for `seconds` readings from monotonic `t0`, with a footpod beside it.
    func feed(
        _ controller: inout SessionController,
        from t0: Double,
        seconds: Int,
        speed: Double,
        total: Double,
        rows: inout [SessionRow]
    ) -> [SessionController.JournalEntry] {
        var journal: [SessionController.JournalEntry] = []
        for k in 0..<seconds {
            var output = SessionOutput()
            let belt = SpeedSensorSample(
                source: .treadmill,
                reading: SpeedSample(speed: speed, totalDistance: (total + speed * Double(k)).rounded(.down)),
                receivedAt: t0 + Double(k)
            )
            let footpod = SpeedSensorSample(
                source: .footpod,
                reading: SpeedSample(speed: speed * 1.07, cadence: 170, totalDistance: 1.07 * speed * Double(k)),
                receivedAt: t0 + Double(k) + 0.5
            )
            controller.speed(belt, into: &output)
            controller.speed(footpod, into: &output)
            rows += output.rows
            for row in output.rows {
                if case .speed(_, _, let sample) = row { journal.append(.speed(sample)) }
            }
        }
        return journal
    }

    @Test func anIndoorStartTakesItsDistanceFromTheTreadmillAndLogsEverySample() {
        var controller = SessionController(configuration: Self.treadmill, ids: SessionIDGenerator(seed: 1))
        var output = SessionOutput()
        let reply = controller.handle(
            .start,
            id: "s",
            indoor: true,
            receivedAt: 100,
            systemTime: 1_700_000_000,
            into: &output
        )
        #expect(reply.accepted && reply.message == "indoor session started (distance from the treadmill)")
        guard case .begin(_, .running, let anchor, .treadmill, nil, _)? = output.rows.first else {
            Issue.record("no indoor begin row: \(output.rows)")
            return
        }
        #expect(anchor.source == .system)
        var rows: [SessionRow] = []
        _ = feed(&controller, from: 100, seconds: 601, speed: 3.0, total: 0, rows: &rows)
        let summary = controller.session!.track.summary
        #expect(summary.distance == 1800 && summary.distanceSource == .treadmill)
        // Every sample of both sensors is logged, each dated on the session's clock.
        let logged = rows.compactMap { if case .speed(_, _, let sample) = $0 { sample } else { nil } }
        #expect(logged.count == 1202)
        #expect(logged.first?.time == 1_700_000_000 && logged.last?.time == 1_700_000_600.5)
        #expect(
            rows.contains { row in
                if case .event(_, let announcement) = row, case .track(.split) = announcement.event {
                    true
                } else {
                    false
                }
            }
        )
    }

    @Test func withNoSensorConfiguredAnIndoorStartIsRefusedAndNothingBegins() {
        var controller = SessionController(configuration: .init(), ids: SessionIDGenerator(seed: 1))
        var output = SessionOutput()
        let reply = controller.handle(.start, id: "s", indoor: true, receivedAt: 1, systemTime: 1, into: &output)
        #expect(!reply.accepted && reply.refusal == .notReady)
        #expect(controller.session == nil && controller.lifecycle.state == .idle)
        // The same id asked again gets the same refusal.
        #expect(controller.handle(.start, id: "s", receivedAt: 2, systemTime: 2, into: &output) == reply)
    }

    @Test func theConfiguredDefaultMakesEveryStartIndoorUnlessToldOtherwise() {
        var configuration = Self.treadmill
        configuration.indoorByDefault = true
        var controller = SessionController(configuration: configuration, ids: SessionIDGenerator(seed: 1))
        var output = SessionOutput()
        _ = controller.handle(.start, id: "a", receivedAt: 1, systemTime: 1, into: &output)
        #expect(controller.session?.track.distanceSource == .treadmill)
        _ = controller.handle(.end, id: "b", receivedAt: 2, systemTime: 2, into: &output)
        _ = controller.handle(.start, id: "c", indoor: false, receivedAt: 3, systemTime: 3, into: &output)
        #expect(controller.session?.track.distanceSource == .gps)
    }

    @Test func aCrashedIndoorSessionIsRebuiltFromItsLogAndItsClockGoesOn() {
        var controller = SessionController(configuration: Self.treadmill, ids: SessionIDGenerator(seed: 1))
        var output = SessionOutput()
        _ = controller.handle(.start, id: "s", indoor: true, receivedAt: 100, systemTime: 5000, into: &output)
        var rows: [SessionRow] = []
        let journal = feed(&controller, from: 100, seconds: 301, speed: 2.5, total: 40, rows: &rows)
        let before = controller.session!.track.summary
        let recovered = RecoveredSession(
            id: controller.session!.id,
            activity: .running,
            startedAt: TimeAnchor(source: .system, seconds: 5000),
            journal: [.command(.start, id: "s")] + journal,
            nextSeq: 999,
            distanceSource: .treadmill
        )
        // Back after 60 s (a new boot's monotonic clock starts near zero).
        var rebuilt = SessionController(
            recovering: recovered,
            configuration: Self.treadmill,
            ids: SessionIDGenerator(seed: 2),
            restartedAt: 7,
            restartedUTC: 5361
        )
        #expect(rebuilt.session!.track.summary == before)
        // The belt ran on while the wearable was down: its count carries those metres.
        _ = feed(&rebuilt, from: 7, seconds: 11, speed: 2.5, total: 40 + 2.5 * 360, rows: &rows)
        #expect(abs(rebuilt.session!.track.distance - 2.5 * 370) <= 2)
        let last = rows.compactMap { if case .speed(_, _, let sample) = $0 { sample.time } else { nil } }.last
        #expect(last == 5371.5)
    }
}
