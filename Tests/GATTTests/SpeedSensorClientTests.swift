import ATT
import GATT
import Harness
import HexCoding
import SpeedSensors
import Testing

/// The same GATT client with a footpod's and a treadmill's plans, driven by their transcripts.
@Suite("GATT footpod and treadmill clients")
struct SpeedSensorClientTests {
    /// Plays a transcript: every `.expect` must be exactly what the client sent next.
    func play(_ steps: [Step], client: inout GATTClient) -> [GATTClient.Output] {
        var all = client.start(now: 0)
        var sent = all.compactMap { if case .send(let bytes) = $0 { bytes } else { nil } }
        for step in steps {
            switch step {
            case .expect(let hex):
                #expect(!sent.isEmpty, "client sent nothing; expected \(hex)")
                if !sent.isEmpty { #expect(Hex.encode(sent.removeFirst()) == Hex.encode(step.bytes)) }
            case .reply:
                let outputs = client.receive(step.bytes, now: 0)
                all += outputs
                sent += outputs.compactMap { if case .send(let bytes) = $0 { bytes } else { nil } }
            default:
                break
            }
        }
        #expect(sent.isEmpty, "client sent more than the transcript expects: \(sent.map(Hex.encode))")
        return all
    }

    static let mtu: [Step] = [.expect("02 b9 00"), .reply("03 f7 00")]

    /// GAP 0x01-0x05, GATT 0x06-0x09, RSC 0x0A-0x11 (0x2A53 value 0x0C, CCCD 0x0D; 0x2A54 value
    /// 0x0F; 0x2A5D value 0x11), Battery 0x12-0x14 (0x2A19 value 0x14).
    static let footpod: [Step] =
        mtu + [
            .expect("10 0100 ffff 0028"),
            .reply("11 06 0100 0500 0018 0600 0900 0118 0a00 1100 1418 1200 1400 0f18"),
            .expect("10 1500 ffff 0028"), .reply("01 10 1500 0a"),
            .expect("08 0a00 1100 0328"), .reply("09 07 0b00 10 0c00 532a 0e00 02 0f00 542a 1000 02 1100 5d2a"),
            .expect("08 1100 1100 0328"), .reply("01 08 1100 0a"),
            .expect("08 1200 1400 0328"), .reply("09 07 1300 02 1400 192a"),
            .expect("08 1400 1400 0328"), .reply("01 08 1400 0a"),
            .expect("04 0d00 0d00"), .reply("05 01 0d00 0229"),
            .expect("12 0d00 0100"), .reply("13"),
            .expect("0a 0f00"), .reply("0b 0700"),
            .expect("0a 1100"), .reply("0b 04"),
            .expect("0a 1400"), .reply("0b 5a"),
        ]

    @Test func aFootpodIsDiscoveredSubscribedAndItsMeasurementsRead() throws {
        var client = GATTClient(plan: SpeedSensorKind.footpod.plan)
        // Stride and distance present, running: 3.0 m/s, 180 steps/min, 1.20 m, 1234.5 m.
        let outputs = play(Self.footpod + [.reply("1b 0c00 07 0003 b4 7800 39300000")], client: &client)
        guard case .subscribed(let layout) = outputs.first(where: { if case .subscribed = $0 { true } else { false } })
        else {
            Issue.record("never subscribed: \(outputs)")
            return
        }
        #expect(layout.subscribed == [0x0C: 0x0D])
        #expect(outputs.contains(.read(SpeedSensorKind.rscFeature, [0x07, 0x00])))
        #expect(outputs.contains(.read(HeartRateProfile.batteryLevel, [0x5A])))
        guard case .value(let uuid, let value) = outputs.last else {
            Issue.record("no measurement")
            return
        }
        let reading = try SpeedSensorKind.footpod.reading(uuid, value)
        #expect(
            reading == .sample(SpeedSample(speed: 3.0, cadence: 180, strideLength: 1.2, totalDistance: 1234.5))
        )
        #expect(try SpeedSensorKind.footpod.reading(SpeedSensorKind.rscFeature, [0x07, 0x00]) == .feature(7))
    }

    /// GAP, GATT, Fitness Machine 0x0A-0x12 (0x2ACC value 0x0C; 0x2ACD value 0x0E, CCCD 0x0F;
    /// 0x2ADA value 0x11, CCCD 0x12); no battery.
    static let treadmill: [Step] =
        mtu + [
            .expect("10 0100 ffff 0028"), .reply("11 06 0100 0500 0018 0600 0900 0118 0a00 1200 2618"),
            .expect("10 1300 ffff 0028"), .reply("01 10 1300 0a"),
            .expect("08 0a00 1200 0328"), .reply("09 07 0b00 02 0c00 cc2a 0d00 10 0e00 cd2a 1000 10 1100 da2a"),
            .expect("08 1100 1200 0328"), .reply("01 08 1100 0a"),
            .expect("04 0f00 0f00"), .reply("05 01 0f00 0229"),
            .expect("12 0f00 0100"), .reply("13"),
            .expect("04 1200 1200"), .reply("05 01 1200 0229"),
            .expect("12 1200 0100"), .reply("13"),
            .expect("0a 0c00"), .reply("0b 0c200000 00000000"),
        ]

    @Test func aTreadmillIsReadNeverDrivenAndItsStatusFollowed() throws {
        var client = GATTClient(plan: SpeedSensorKind.treadmill.plan)
        // Total distance present (bit 2), speed present (bit 0 clear): 10.80 km/h, 1500 m. Then "started".
        let outputs = play(
            Self.treadmill + [.reply("1b 0e00 0400 3804 dc0500"), .reply("1b 1100 04")],
            client: &client
        )
        let values = outputs.compactMap { if case .value(let uuid, let value) = $0 { (uuid, value) } else { nil } }
        #expect(values.count == 2)
        let kind = SpeedSensorKind.treadmill
        #expect(try kind.reading(values[0].0, values[0].1) == .sample(SpeedSample(speed: 3.0, totalDistance: 1500)))
        #expect(try kind.reading(values[1].0, values[1].1) == .machineStatus(.startedOrResumed))
        // Nothing was ever written but the two CCCDs: no control point request.
        #expect(
            !outputs.contains {
                if case .send(let bytes) = $0 { bytes.first == 0x12 && bytes[1] > 0x12 } else { false }
            }
        )
    }

    @Test func aTreadmillWithoutStatusStillSubscribesToItsData() {
        var client = GATTClient(plan: SpeedSensorKind.treadmill.plan)
        let steps: [Step] =
            Self.mtu + [
                .expect("10 0100 ffff 0028"), .reply("11 06 0a00 0f00 2618"),
                .expect("10 1000 ffff 0028"), .reply("01 10 1000 0a"),
                .expect("08 0a00 0f00 0328"), .reply("09 07 0b00 10 0c00 cd2a"),
                .expect("08 0c00 0f00 0328"), .reply("01 08 0c00 0a"),
                .expect("04 0d00 0f00"), .reply("05 01 0d00 0229"),
                .expect("12 0d00 0100"), .reply("13"),
            ]
        let outputs = play(steps, client: &client)
        #expect(
            outputs.last
                == .subscribed(
                    GATTLayout(
                        mtu: 185,
                        characteristics: [
                            GATTCharacteristic(
                                declaration: 0x0B,
                                properties: 0x10,
                                valueHandle: 0x0C,
                                uuid: SpeedSensorKind.treadmillData
                            )
                        ],
                        subscribed: [0x0C: 0x0D]
                    )
                )
        )
    }

    @Test func aDeviceWithoutTheServiceOrItsMeasurementFailsSayingWhich() {
        var strap = GATTClient(plan: SpeedSensorKind.footpod.plan)
        let noService = play(
            Self.mtu + [.expect("10 0100 ffff 0028"), .reply("11 06 0100 ffff 0d18")],
            client: &strap
        )
        #expect(noService.last == .failed("no Running Speed and Cadence service (0x1814) on this device"))

        var bare = GATTClient(plan: SpeedSensorKind.treadmill.plan)
        let noData = play(
            Self.mtu + [
                .expect("10 0100 ffff 0028"), .reply("11 06 0a00 0f00 2618"),
                .expect("10 1000 ffff 0028"), .reply("01 10 1000 0a"),
                .expect("08 0a00 0f00 0328"), .reply("09 07 0b00 02 0c00 cc2a"),
                .expect("08 0c00 0f00 0328"), .reply("01 08 0c00 0a"),
            ],
            client: &bare
        )
        #expect(noData.last == .failed("no Treadmill Data (0x2ACD) in the Fitness Machine service"))
    }

    @Test func truncatedValuesAreErrorsNotSamples() throws {
        #expect(throws: SpeedPayloadError.self) {
            try SpeedSensorKind.footpod.reading(SpeedSensorKind.rscMeasurement, [0x07, 0x00])
        }
        #expect(throws: SpeedPayloadError.self) {
            try SpeedSensorKind.treadmill.reading(SpeedSensorKind.treadmillData, [0x04, 0x00, 0x38])
        }
        // A split record that carries nothing a session uses is no sample.
        #expect(try SpeedSensorKind.treadmill.reading(SpeedSensorKind.treadmillData, [0x01, 0x00]) == .nothing)
    }

    @Test func randomBytesNeverTrap() {
        var random = SplitMix(seed: 11)
        for kind in SpeedSensorKind.allCases {
            for _ in 0..<5_000 {
                var client = GATTClient(plan: kind.plan)
                _ = client.start(now: 0)
                for _ in 0..<4 {
                    let pdu = (0..<Int(random.next() % 24)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                    _ = client.receive(pdu, now: 0)
                }
                let value = (0..<Int(random.next() % 24)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                for uuid in [
                    SpeedSensorKind.rscMeasurement, SpeedSensorKind.treadmillData, SpeedSensorKind.fitnessMachineStatus,
                ] {
                    _ = try? kind.reading(uuid, value)
                }
            }
        }
    }
}
