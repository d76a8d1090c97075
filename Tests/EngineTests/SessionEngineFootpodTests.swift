import Engine
import GATT
import SessionCore
import SpeedSensors
import Testing
import TrackCore

/// The footpod's fixed-distance calibration through the engine: marked, run, declared; answered
/// durably like any command, its stretch in the same batch.
@Suite("Engine core: a footpod calibrated over a fixed distance")
struct SessionEngineFootpodTests {
    /// The footpod at 3.2 m/s reading 7 % long, a notification a second for `seconds`.
    private func run(_ harness: inout EngineHarness, seconds: Int, from total: inout Double) {
        for _ in 0..<seconds {
            harness.now.monotonic += 1
            total += 3.2 * 1.07
            let sample = SpeedSample(speed: 3.2 * 1.07, cadence: 172, totalDistance: total)
            harness.send(
                .speedSensor(
                    SpeedSensorLinkEvent(
                        kind: .footpod,
                        address: "F2",
                        what: .sample(sample, payload: []),
                        receivedAt: harness.now.monotonic
                    )
                )
            )
        }
    }

    private func answer(_ harness: EngineHarness, _ token: ReplyToken) -> CommandReply? {
        if case .command(let reply)? = harness.reply(token) { reply } else { nil }
    }

    @Test func aLapDeclaredAfterTheMarkTeachesTheFactor() {
        var harness = EngineHarness(speedSensors: [.footpod])
        let early = harness.command(.calibrate, id: "c0")
        #expect(answer(harness, early)?.refusal == .notReady, "no footpod streaming yet")
        harness.send(
            .speedSensor(SpeedSensorLinkEvent(kind: .footpod, address: "F2", what: .connected, receivedAt: 1000))
        )
        var total = 5000.0
        run(&harness, seconds: 3, from: &total)
        let done = harness.command(.calibrate, id: "c1", metres: 400)
        #expect(answer(harness, done)?.refusal == .invalid, "no mark yet")
        let mark = harness.command(.calibrate, id: "c2")
        #expect(answer(harness, mark)?.accepted == true)
        // 400 m run in 125 s at 3.2 m/s: the footpod counts 428 m.
        run(&harness, seconds: 125, from: &total)
        let lap = harness.command(.calibrate, id: "c3", metres: 400)
        let reply = answer(harness, lap)
        #expect(reply?.accepted == true, "\(String(describing: reply))")
        #expect(reply?.message.contains("7.0 % long") == true, "message: \(reply?.message ?? "none")")
        let factor = harness.engine.controller.footpodCalibration.calibrator.overall?.factor ?? 0
        #expect(abs(factor * 1.07 - 1) < 0.005)
        // The stretch went to the log with the reply's batch, marked fixed.
        let fixed = harness.logged.compactMap { row -> Bool? in
            if case .session(.calibration(_, "F2", _, let fixed)) = row { fixed } else { nil }
        }
        #expect(fixed == [true])
        // The same id again: the same answer, no second stretch.
        let again = harness.command(.calibrate, id: "c3", metres: 400)
        #expect(answer(harness, again) == reply)
        #expect(harness.engine.controller.footpodCalibration.calibrator.stretches.count == 1)
    }
}
