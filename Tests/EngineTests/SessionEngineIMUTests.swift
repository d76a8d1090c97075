import Engine
import Gait
import PhoneLinkMessages
import SessionCore
import SpeedSensors
import SyntheticReceivers
import Testing
import TrackCore

/// The IMU through the engine: its samples in batches as its shell reads them, the pedometer's
/// readings into the session (logged, and where no footpod is configured its strides), its status.
@Suite("Engine core: the IMU's steps")
struct SessionEngineIMUTests {
    /// A recording's samples on the harness's clock, in batches of a tenth of a second.
    func play(_ recording: SyntheticGait.Recording, into harness: inout EngineHarness, from start: Double) {
        var batch: [AccelerationSample] = []
        for var sample in recording.samples {
            sample.time += start
            batch.append(sample)
            if batch.count == 10 {
                harness.now.monotonic = sample.time
                harness.send(.imu(.samples(batch)))
                batch.removeAll()
                if Int(sample.time * 10) % 10 == 0 { harness.send(.tick) }
            }
        }
    }

    static let run = SyntheticGait.gaits.first { $0.name == "run, steady" }!.bouts

    @Test func anIndoorSessionTakesItsDistanceFromTheSteps() throws {
        var harness = EngineHarness(.init(indoorByDefault: true, indoorSource: .steps), imu: .hip)
        #expect(harness.status()?.imu?.state == .absent)
        harness.send(
            .imu(.found(name: "bmi160", device: "/sys/bus/iio/devices/iio:device0", trigger: "wearbridge", rate: 100))
        )
        #expect(harness.engine.controller.footpodCalibration.footpod == "steps:hip")
        harness.command(.start, id: "s")
        let recording = SyntheticGait.recording(Self.run, placement: .hip, seed: 9)
        play(recording, into: &harness, from: harness.now.monotonic + 1)
        let answered = harness.status()
        let status = try #require(answered)
        let figures = try #require(status.figures)
        #expect(figures.distanceSource == .steps)
        let steps = try #require(figures.steps)
        let truth = recording.steps.count
        #expect(abs(Double(steps - truth)) <= 0.02 * Double(truth) + 8, "\(steps) of \(truth)")
        // Uncalibrated: the prior's metres, about 1.23 m a step at 172 a minute.
        #expect(abs(figures.distance - Double(steps) * StepLength.prior(cadence: 172)) < 0.03 * figures.distance)
        let imu = try #require(status.imu)
        #expect(imu.state == .reading && imu.name == "bmi160" && imu.trigger == "wearbridge")
        #expect(abs((imu.measuredRate ?? 0) - 100) < 5)
        #expect(abs((imu.cadence ?? 0) - 172) < 4)
        harness.command(.end, id: "e")
        let rows = harness.disk.compactMap { row -> SpeedSensorSample? in
            if case .speed(_, _, let sample) = row { sample } else { nil }
        }
        #expect(rows.count > 250 && rows.allSatisfy { $0.source == .steps && $0.reading.steps != nil })
    }

    /// The phone sees the steps: in the live snapshots as they are counted, and in the end's summary.
    @Test func theStepsGoToThePhone() throws {
        var harness = EngineHarness(.init(indoorByDefault: true, indoorSource: .steps), phoneLink: true, imu: .hip)
        harness.send(
            .imu(.found(name: "bmi160", device: "/sys/bus/iio/devices/iio:device0", trigger: "wearbridge", rate: 100))
        )
        harness.command(.start, id: "s")
        let recording = SyntheticGait.recording(Self.run, placement: .hip, seed: 9)
        play(recording, into: &harness, from: harness.now.monotonic + 1)
        let counted = try #require(harness.status()?.figures?.steps)
        harness.command(.end, id: "e")
        let messages = harness.logged.compactMap { if case .outbox(let message, _) = $0 { message } else { nil } }
        let snapshots = messages.compactMap { if case .snapshot(let snapshot) = $0 { snapshot } else { nil } }
        let live = snapshots.compactMap(\.steps)
        #expect(live.count > 10 && live == live.sorted() && live.last == counted, "\(live.suffix(3)) of \(counted)")
        let ended = messages.compactMap { if case .ended(_, _, let summary, _, _) = $0 { summary } else { nil } }
        #expect(ended.map(\.steps) == [counted])
    }

    @Test func withAFootpodTheStepsAreCountedButCarryNoDistance() throws {
        var config = SessionController.Configuration(indoorByDefault: true, indoorSource: .footpod)
        config.stepsCountDistance = false
        var harness = EngineHarness(config, speedSensors: [.footpod], imu: .hip)
        harness.send(.imu(.found(name: "bmi160", device: "/sys/bus/iio/devices/iio:device0", trigger: "t", rate: 100)))
        #expect(harness.engine.controller.footpodCalibration.footpod == nil)
        harness.command(.start, id: "s")
        let recording = SyntheticGait.recording(Self.run, placement: .hip, seed: 2)
        play(recording, into: &harness, from: harness.now.monotonic + 1)
        let answered = harness.status()
        let figures = try #require(answered?.figures)
        #expect(figures.distance == 0, "the footpod said nothing")
        #expect((figures.steps ?? 0) > recording.steps.count * 9 / 10)
    }

    @Test func aDeviceGoneIsAbsentWithItsReason() {
        var harness = EngineHarness(imu: .wrist)
        harness.send(.imu(.found(name: "lsm6ds3", device: "/sys/bus/iio/devices/iio:device1", trigger: "t", rate: 50)))
        harness.send(.imu(.unreadable(reason: "/dev/iio:device1: No such device", receivedAt: 1001)))
        harness.send(.imu(.absent(reason: "/dev/iio:device1: No such device")))
        let imu = harness.status()?.imu
        #expect(imu?.state == .absent && imu?.unreadable == 1 && imu?.reason == "/dev/iio:device1: No such device")
        #expect(imu?.placement == .wrist)
    }
}
