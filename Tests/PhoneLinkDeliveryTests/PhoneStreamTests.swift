import PhoneLinkDelivery
import Testing

/// One wearable's stream on the phone from transcripts: hello, envelopes, commits and acks, with
/// simulated time; no sockets, no database.
@Suite struct PhoneStreamTests {
    func stream(mark: Int = 0, snapshot: Int = 0, head: Int = 10) throws -> PhoneStream {
        try PhoneStream(epoch: "e1", head: head, stored: InboxMark(mark: mark, snapshot: snapshot, head: 0))
    }

    @Test(arguments: [
        ("", false), ("e1", true), (String(repeating: "é", count: 32), true),
        (String(repeating: "é", count: 33), false), (String(repeating: "x", count: 65), false),
    ])
    func theHellosEpochIsRequiredAndBounded(epoch: String, accepted: Bool) {
        #expect(PhoneStream.accepts(epoch: epoch) == accepted)
        let opened = try? PhoneStream(epoch: epoch, head: 0, stored: InboxMark(mark: 0, snapshot: 0, head: 0))
        #expect((opened != nil) == accepted)
    }

    @Test func theWelcomeCarriesTheStoredMarksAndNoticesARestoredLog() throws {
        let fresh = try stream(mark: 7, snapshot: 9, head: 12)
        #expect(fresh.ack == (7, 9) && !fresh.behindMark)
        #expect(try stream(mark: 13, head: 12).behindMark)
    }

    @Test func aTranscript() throws {
        var stream = try stream(mark: 3, snapshot: 2)
        // New: store, then the mark moves only with the commit.
        #expect(
            stream.envelope(seq: 4, isSnapshot: false, impossibility: nil, knownKind: true)
                == .store(unknownKind: false)
        )
        #expect(stream.ack == (3, 2))
        stream.committed(seq: 4, isSnapshot: false)
        #expect(stream.ack == (4, 2))
        // A resend of it, and of anything older.
        #expect(stream.envelope(seq: 4, isSnapshot: false, impossibility: nil, knownKind: true) == .duplicate)
        #expect(stream.envelope(seq: 1, isSnapshot: false, impossibility: nil, knownKind: true) == .duplicate)
        // Snapshots keep their own mark: newer is stored, older is stale.
        #expect(
            stream.envelope(seq: 5, isSnapshot: true, impossibility: nil, knownKind: true) == .store(unknownKind: false)
        )
        stream.committed(seq: 5, isSnapshot: true)
        #expect(stream.envelope(seq: 2, isSnapshot: true, impossibility: nil, knownKind: true) == .staleSnapshot)
        #expect(stream.ack == (4, 5))
        // An impossible snapshot is not stored, but its seq is spent: acknowledged past.
        #expect(
            stream.envelope(seq: 6, isSnapshot: true, impossibility: "elapsed 1e9 s", knownKind: true)
                == .impossible("elapsed 1e9 s")
        )
        #expect(stream.ack == (4, 6))
        // What makes a snapshot impossible does not apply to other classes.
        #expect(
            stream.envelope(seq: 5, isSnapshot: false, impossibility: "x", knownKind: true)
                == .store(unknownKind: false)
        )
        // A kind this phone does not know is stored as it came.
        #expect(
            stream.envelope(seq: 5, isSnapshot: false, impossibility: nil, knownKind: false)
                == .store(unknownKind: true)
        )
        // No seq, or no class: refused, the marks unmoved.
        #expect(
            stream.envelope(seq: 0, isSnapshot: false, impossibility: nil, knownKind: true)
                == .invalid("no seq or class")
        )
        #expect(
            stream.envelope(seq: -3, isSnapshot: true, impossibility: nil, knownKind: true)
                == .invalid("no seq or class")
        )
        #expect(
            stream.envelope(seq: 9, isSnapshot: nil, impossibility: nil, knownKind: true) == .invalid("no seq or class")
        )
        #expect(stream.ack == (4, 6))
    }

    @Test func lastSeenIsWrittenAtMostOnceASecond() throws {
        var stream = try stream()
        let heard = [100.0, 100.2, 100.99, 101.0, 101.5, 103.0, 103.0].map { stream.heard(at: $0) }
        #expect(heard == [true, false, false, true, false, true, false])
    }
}
