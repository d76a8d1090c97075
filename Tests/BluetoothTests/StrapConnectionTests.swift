import Bluetooth
import Dispatch
import GATT
import Glibc
import Harness
import HeartRate
import HexCoding
import Logging
import ProcessClock
import Synchronization
import Testing

/// The strap connection over a real SOCK_SEQPACKET socketpair: the same bearer code as the
/// kernel's L2CAP socket, with the strap's side played from a byte transcript.
@Suite("Strap connection over a socketpair")
struct StrapConnectionTests {
    struct Outcome {
        var reason: String
        var events: [StrapLinkEvent]
        var connection: StrapConnection
        var monitor: StrapMonitor
        /// What went wrong on the strap's side: a request other than the transcript's.
        var strapSide: [String]
    }

    /// Runs a connection against `steps` played on the other end of a socketpair.
    func converse(
        _ steps: [Step],
        requestTimeout: Double = 30,
        silenceAfter: Double = 5,
        stopAfter: Double = 10
    ) throws -> Outcome {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds) == 0)
        let client = ATTBearer(descriptor: fds[0])
        let strap = ATTBearer(descriptor: fds[1])
        let problems = Mutex<[String]>([])
        let played = DispatchSemaphore(value: 0)
        DispatchQueue(label: "strap").async {
            defer { played.signal() }
            for step in steps {
                switch step {
                case .expect:
                    let got = try? strap.receive(timeout: 5)
                    if got != step.bytes {
                        problems.withLock { $0.append("\(step): got \(got.map(Hex.encode) ?? "nothing")") }
                        return
                    }
                case .reply: try? strap.send(step.bytes)
                case .wait(let ms): usleep(UInt32(ms) * 1000)
                case .close:
                    strap.close()
                    return
                }
            }
        }
        let stop = StopFlag()
        DispatchQueue.global().asyncAfter(deadline: .now() + stopAfter) { stop.set() }
        var connection = StrapConnection(
            client: HeartRateClient(requestTimeout: requestTimeout),
            batteryEvery: 300,
            clock: { MonotonicClock.now() },
            logger: Logger(label: "test")
        )
        var monitor = StrapMonitor(address: "F1:F1:F1:F1:F1:F1", silenceAfter: silenceAfter)
        var events: [StrapLinkEvent] = []
        let reason = connection.run(over: client, monitor: &monitor, stop: stop) { events.append($0) }
        client.close()
        played.wait()
        strap.close()
        return Outcome(
            reason: reason,
            events: events,
            connection: connection,
            monitor: monitor,
            strapSide: problems.withLock { $0 }
        )
    }

    func beats(_ events: [StrapLinkEvent]) -> [String] {
        events.compactMap { if case .beat(_, let payload, _) = $0 { Hex.encode(payload) } else { nil } }
    }

    @Test func discoveryThenBeatsUntilTheStrapHangsUp() throws {
        let outcome = try converse(
            StrapTranscript.discovery + [
                StrapTranscript.beat("16 3c 11 04"), StrapTranscript.beat("10 3d"), StrapTranscript.beat("14 3e 00 04"),
                .wait(100), .close,
            ]
        )
        #expect(outcome.strapSide.isEmpty, "\(outcome.strapSide)")
        #expect(outcome.reason == "link closed by the strap")
        #expect(beats(outcome.events) == ["163c1104", "103d", "143e0004"])
        #expect(outcome.events.contains { if case .subscribed = $0 { true } else { false } })
        #expect(outcome.events.contains { if case .bodySensorLocation("chest", _) = $0 { true } else { false } })
        #expect(outcome.events.contains { if case .strap(.battery(level: 80), _) = $0 { true } else { false } })
        #expect(outcome.events.contains { if case .strap(.found("F1:F1:F1:F1:F1:F1"), _) = $0 { true } else { false } })
        // 0x14: contact supported, not detected.
        #expect(outcome.events.contains { if case .strap(.contactLost, _) = $0 { true } else { false } })
        #expect(outcome.connection.beats == 3)
    }

    @Test func truncatedNotificationsAreCountedAndNoBeatIsInvented() throws {
        let outcome = try converse(
            StrapTranscript.discovery + [
                StrapTranscript.beat("01 3c"), StrapTranscript.beat("08 3c 01"), .reply("1b 0c00"),
                StrapTranscript.beat("00 48"),
                .wait(100), .close,
            ]
        )
        #expect(outcome.strapSide.isEmpty, "\(outcome.strapSide)")
        #expect(beats(outcome.events) == ["0048"])
        #expect(outcome.connection.malformedBeats == 3)
        let malformed = outcome.events.compactMap {
            if case .malformedBeat(let p, _, _) = $0 { Hex.encode(p) } else { nil }
        }
        #expect(malformed == ["013c", "083c01", ""])
    }

    @Test func aDisconnectMidDiscoveryEndsTheConnectionAndSaysSo() throws {
        let outcome = try converse(StrapTranscript.mtu + [StrapTranscript.services[0], .close])
        #expect(outcome.reason == "link closed by the strap")
        #expect(beats(outcome.events).isEmpty && !outcome.monitor.isLinked)
    }

    @Test func anUnansweredRequestTimesOut() throws {
        let outcome = try converse(
            StrapTranscript.mtu + [StrapTranscript.services[0], .wait(1500)],
            requestTimeout: 0.5
        )
        #expect(outcome.reason == "ATT request 0x10 unanswered for 0.5 s")
    }

    @Test func garbageFromTheStrapIsIgnoredAndCounted() throws {
        let outcome = try converse(
            [.expect("02 b9 00"), .reply(""), .reply("05"), .reply("ff 00 11"), .reply("09 01 00"), .reply("03 f7 00")]
                + StrapTranscript.services + StrapTranscript.characteristics + StrapTranscript.descriptors
                + StrapTranscript.subscribe + StrapTranscript.reads + [
                    StrapTranscript.beat("00 50"), .wait(100), .close,
                ]
        )
        #expect(outcome.strapSide.isEmpty, "\(outcome.strapSide)")
        #expect(outcome.connection.ignoredPDUs == 4)
        #expect(beats(outcome.events) == ["0050"])
    }

    @Test func aSubscribedStrapThatFallsSilentIsDropped() throws {
        let outcome = try converse(
            StrapTranscript.discovery + [StrapTranscript.beat("00 50"), .wait(2000)],
            silenceAfter: 0.6
        )
        #expect(outcome.reason == "no beat for 0.6 s while connected")
        #expect(beats(outcome.events) == ["0050"])
    }
}
