import ATT
import GATT
import Harness
import HeartRate
import HexCoding
import Testing

/// The GATT client as a pure state machine, driven by the strap's transcript with scripted time.
@Suite("GATT heart-rate client")
struct HeartRateClientTests {
    /// Plays a transcript against the client: every `.expect` must be exactly what it sent.
    func play(_ steps: [Step], client: inout HeartRateClient, now: Double = 0) -> [HeartRateClient.Output] {
        var outputs = client.start(now: now)
        var sent: [[UInt8]] = []
        func drain() {
            for case .send(let bytes) in outputs { sent.append(bytes) }
        }
        var all = outputs
        drain()
        for step in steps {
            switch step {
            case .expect(let hex):
                #expect(!sent.isEmpty, "client sent nothing; expected \(hex)")
                if !sent.isEmpty { #expect(Hex.encode(sent.removeFirst()) == Hex.encode(step.bytes)) }
            case .reply:
                outputs = client.receive(step.bytes, now: now)
                all += outputs
                drain()
            default:
                break
            }
        }
        #expect(sent.isEmpty, "client sent more than the transcript expects: \(sent.map(Hex.encode))")
        return all
    }

    @Test func discoversSubscribesAndReadsLocationAndBattery() {
        var client = HeartRateClient()
        let outputs = play(StrapTranscript.discovery + [StrapTranscript.beat("16 3c 11 04")], client: &client)
        let profile = HeartRateProfile(
            measurementHandle: 0x0C,
            measurementCCCD: 0x0D,
            bodySensorLocationHandle: 0x0F,
            batteryLevelHandle: 0x12,
            mtu: 185
        )
        #expect(outputs.contains(.subscribed(profile)))
        #expect(outputs.contains(.bodySensorLocation(1)))
        #expect(outputs.contains(.batteryLevel(80)))
        #expect(outputs.last == .measurement([0x16, 0x3C, 0x11, 0x04]))
        #expect(client.isSubscribed && !client.isFailed)
    }

    @Test func aStrapWithoutMTUExchangeOrBatteryStillSubscribes() {
        var client = HeartRateClient()
        let steps: [Step] = [
            .expect("02 b9 00"), .reply("01 02 0000 06"),
            .expect("10 0100 ffff 0028"), .reply("11 06 0100 0700 0018 0800 0c00 0d18"),
            .expect("10 0d00 ffff 0028"), .reply("01 10 0d00 0a"),
            .expect("08 0800 0c00 0328"), .reply("09 07 0900 10 0a00 372a"),
            .expect("08 0a00 0c00 0328"), .reply("01 08 0a00 0a"),
            // Find Information answers a descriptor that is not the CCCD first.
            .expect("04 0b00 0c00"), .reply("05 01 0b00 0129"),
            .expect("04 0c00 0c00"), .reply("05 01 0c00 0229"),
            .expect("12 0c00 0100"), .reply("13"),
        ]
        let outputs = play(steps, client: &client)
        #expect(
            outputs.contains(.subscribed(HeartRateProfile(measurementHandle: 0x0A, measurementCCCD: 0x0C, mtu: 23)))
        )
    }

    @Test func indicationsAreConfirmedAndServerRequestsAnswered() {
        var client = HeartRateClient()
        _ = play(StrapTranscript.discovery, client: &client)
        #expect(
            client.receive([0x1D, 0x0C, 0x00, 0x00, 0x48], now: 1) == [.send([0x1E]), .measurement([0x00, 0x48])]
        )
        #expect(client.receive([0x02, 0x40, 0x00], now: 1) == [.send([0x03, 0xB9, 0x00])])
        #expect(client.receive([0x0A, 0x01, 0x00], now: 1) == [.send([0x01, 0x0A, 0x00, 0x00, 0x06])])
        // A write command needs no answer and gets none.
        #expect(
            client.receive([0x52, 0x01, 0x00, 0x01], now: 1).allSatisfy {
                if case .ignored = $0 { true } else { false }
            }
        )
    }

    @Test func errorResponsesThatEndTheConnectionSayWhy() {
        var client = HeartRateClient()
        let refusedCCCD =
            StrapTranscript.mtu + StrapTranscript.services + StrapTranscript.characteristics
            + StrapTranscript.descriptors + [.expect("12 0d00 0100"), .reply("01 12 0d00 03")]
        let outputs = play(refusedCCCD, client: &client)
        #expect(outputs.last == .failed("strap refused writeCCCD at handle 0x000d with ATT error 0x03"))
        #expect(client.isFailed && client.receive([0x13], now: 0).isEmpty)

        var noHeartRate = HeartRateClient()
        let other = play(
            StrapTranscript.mtu + [
                .expect("10 0100 ffff 0028"), .reply("11 06 0100 ffff 0018"),
            ],
            client: &noHeartRate
        )
        #expect(other.last == .failed("no Heart Rate service (0x180D) on this device"))
    }

    @Test func aRefusedOptionalReadIsIgnoredAndTheNextOneMade() {
        var client = HeartRateClient()
        let steps =
            StrapTranscript.mtu + StrapTranscript.services + StrapTranscript.characteristics
            + StrapTranscript.descriptors + StrapTranscript.subscribe
            + [.expect("0a 0f00"), .reply("01 0a 0f00 05"), .expect("0a 1200"), .reply("0b 64")]
        let outputs = play(steps, client: &client)
        #expect(outputs.contains(.ignored("read of 0x000f refused (ATT error 0x05)")))
        #expect(outputs.last == .batteryLevel(100))
    }

    @Test func aRequestUnansweredFor30SecondsEndsTheBearer() {
        var client = HeartRateClient()
        #expect(client.start(now: 100) == [.send([0x02, 0xB9, 0x00])])
        #expect(client.tick(now: 129.9).isEmpty)
        #expect(client.tick(now: 130) == [.failed("ATT request 0x02 unanswered for 30 s")])
        #expect(client.tick(now: 200).isEmpty)
    }

    @Test func garbageAndUnexpectedPDUsAreIgnoredWithoutDerailingDiscovery() {
        var client = HeartRateClient()
        var outputs = client.start(now: 0)
        for garbage: [UInt8] in [[], [0x05], [0x11, 0x06, 0x01], [0x09, 0x01], [0x13], [0xFF, 0xFF], [0x1B, 0x0C]] {
            outputs = client.receive(garbage, now: 0)
            #expect(outputs.count == 1)
            guard case .ignored = outputs.first else {
                Issue.record("\(Hex.encode(garbage)) gave \(outputs)")
                continue
            }
        }
        // A notification before discovery found the measurement is not a beat.
        guard case .ignored = client.receive([0x1B, 0x0C, 0x00, 0x00, 0x48], now: 0).first else {
            Issue.record("notification before discovery was taken")
            return
        }
        #expect(client.receive([0x03, 0xf7, 0x00], now: 0) == [.send([0x10, 0x01, 0x00, 0xff, 0xff, 0x00, 0x28])])
    }

    @Test func serviceRangesGoingBackwardsAreRefusedRatherThanLoopedOn() {
        var client = HeartRateClient()
        let outputs = play(
            StrapTranscript.mtu + [
                .expect("10 0100 ffff 0028"), .reply("11 06 0a00 0f00 0d18"),
                .expect("10 1000 ffff 0028"), .reply("11 06 0100 0500 0018"),
            ],
            client: &client
        )
        #expect(outputs.last == .failed("service range 0x0001-0x0005 out of order"))
    }

    @Test func randomBytesNeverTrapAndAlwaysEndInAKnownState() {
        var random = SplitMix(seed: 7)
        for _ in 0..<20_000 {
            var client = HeartRateClient()
            _ = client.start(now: 0)
            for _ in 0..<4 {
                let count = Int(random.next() % 24)
                let pdu = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                _ = client.receive(pdu, now: 0)
            }
        }
    }

    @Test func aMeasurementThatOnlyIndicatesIsSubscribedForIndications() {
        var client = HeartRateClient()
        let steps =
            StrapTranscript.mtu + [
                .expect("10 0100 ffff 0028"), .reply("11 06 0100 0500 0d18"),
                .expect("10 0600 ffff 0028"), .reply("01 10 0600 0a"),
                .expect("08 0100 0500 0328"), .reply("09 07 0200 20 0300 372a"),
                .expect("08 0300 0500 0328"), .reply("01 08 0300 0a"),
                .expect("04 0400 0500"), .reply("05 01 0400 0229"),
                .expect("12 0400 0200"), .reply("13"),
            ]
        let outputs = play(steps, client: &client)
        #expect(outputs.last == .subscribed(HeartRateProfile(measurementHandle: 3, measurementCCCD: 4, mtu: 185)))
    }

    @Test func batteryIsReReadWhenAskedAndQueuedBehindABusyRequest() {
        var client = HeartRateClient()
        #expect(client.refreshBattery(now: 0).isEmpty, "nothing known yet")
        _ = play(
            StrapTranscript.mtu + StrapTranscript.services + StrapTranscript.characteristics
                + StrapTranscript.descriptors + StrapTranscript.subscribe + [.expect("0a 0f00")],
            client: &client
        )
        // The location read is outstanding: the battery read waits for it, then goes out once.
        #expect(client.refreshBattery(now: 1).isEmpty)
        #expect(client.refreshBattery(now: 1).isEmpty)
        #expect(client.receive([0x0B, 0x01], now: 2) == [.bodySensorLocation(1), .send([0x0A, 0x12, 0x00])])
        #expect(client.receive([0x0B, 0x4B], now: 2) == [.batteryLevel(75)])
        #expect(client.receive([0x0B, 0x4B], now: 2).count == 1, "the queued duplicate was not sent")
        #expect(client.refreshBattery(now: 400) == [.send([0x0A, 0x12, 0x00])])
    }

    @Test func valuesForOtherHandlesAreNotBeats() {
        var client = HeartRateClient()
        _ = play(StrapTranscript.discovery, client: &client)
        let outputs = client.receive([0x1B, 0x12, 0x00, 0x50], now: 3)
        #expect(outputs == [.ignored("value for handle 0x0012, not a subscribed characteristic")])
    }
}
