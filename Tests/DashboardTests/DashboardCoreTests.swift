import DashboardCore
import Testing
import TrackCore

@Suite struct LinkStripTests {
    @Test(arguments: [
        (true, 0.5, false, LinkStrip.State.live),
        (true, 0.5, true, .paused),
        (true, 2.5, false, .stale),
        (true, 2.5, true, .stale),
        (true, 12.5, false, .lost),
        (false, 0.5, false, .lost),
    ])
    func judgesOnTheServersClock(connected: Bool, age: Double, paused: Bool, expected: LinkStrip.State) {
        let strip = LinkStrip(connected: connected, lastSeenAge: age, paused: paused, staleAfter: 2)
        #expect(strip.state == expected)
        #expect((strip.commandsRefusedBecause == nil) == (expected == .live || expected == .paused))
    }

    @Test func neverHeardIsLostWithAReason() {
        let strip = LinkStrip(connected: false, lastSeenAge: nil, paused: false, staleAfter: 2)
        #expect(strip.state == .lost)
        #expect(strip.commandsRefusedBecause == "the wearable has never connected")
    }
}

@Suite struct CommandIDTests {
    @Test(arguments: [
        "dash-0123456789abcdef", "3F2504E0-4F89-11D3-9A0C-0305E82C3301", "abcdefgh", String(repeating: "a", count: 64),
    ])
    func accepts(_ text: String) {
        guard case .success(let id) = CommandID.parse(text) else {
            Issue.record("refused \(text)")
            return
        }
        #expect(id.description == text)
    }

    @Test(arguments: [
        ("short", CommandIDError.length(5)), (String(repeating: "a", count: 65), .length(65)),
        ("abcdefgh'; drop", .character(UInt8(ascii: "'"))), ("abcdefgh\u{0}", .character(0)),
        ("abcdéfgh", .character(0xC3)),
    ])
    func refuses(_ text: String, _ error: CommandIDError) {
        #expect(CommandID.parse(text) == .failure(error))
    }

    /// A course's part is looked up by the id the phone gave it; a page never makes one.
    @Test func aCoursesPartIsLookedUpByItsCoursesIdAndIndex() {
        let part = "8580b812-c7ba-4d08-8679-78048ed72607:12"
        #expect((try? CommandID.parse(standing: part).get())?.description == part)
        #expect((try? CommandID.parse(standing: "dash-0123456789").get())?.description == "dash-0123456789")
        #expect(CommandID.parse(part) == .failure(.character(UInt8(ascii: ":"))), "not an id a page may use")
        for bad in ["8580b812-c7ba:", "8580b812-c7ba:x1", "8580b812-c7ba:1234567", "short:1", "abc'defgh:1"] {
            #expect((try? CommandID.parse(standing: bad).get()) == nil, "\(bad)")
        }
    }
}

@Suite struct ServerSentEventTests {
    @Test func framesEveryLineOfDataAndTheSeq() {
        let event = ServerSentEvent(id: 42, event: "message", data: "{\"a\":1}\nsecond\r", retry: 1000)
        #expect(event.text == "retry: 1000\nid: 42\nevent: message\ndata: {\"a\":1}\ndata: second\n\n")
    }

    @Test func stateHasNoID() {
        #expect(ServerSentEvent(event: "snapshot", data: "{}").text == "event: snapshot\ndata: {}\n\n")
    }

    @Test(arguments: [(nil, Int?.none), ("", nil), ("0", 0), ("1234", 1234)] as [(String?, Int?)])
    func resumesFromASeq(_ header: String?, _ seq: Int?) {
        #expect(ServerSentEvent.resumePoint(header) == .success(seq))
    }

    @Test(arguments: ["-5", "abc", "1e3", "99999999999999999999", "12 "])
    func refusesWhatIsNotASeq(_ header: String) {
        #expect(ServerSentEvent.resumePoint(header) == .failure(.notASeq(header)))
    }
}

@Suite struct AccessPolicyTests {
    @Test(arguments: ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "::ffff:127.0.0.1"])
    func loopbackNeedsNothing(_ address: String) {
        #expect(
            AccessPolicy.check(listen: address, tls: false, paired: false) == .success(AccessPolicy(loopbackOnly: true))
        )
    }

    @Test func beyondLoopbackNeedsTLSThenAPairing() {
        #expect(AccessPolicy.check(listen: "0.0.0.0", tls: false, paired: true) == .failure(.needsTLS("0.0.0.0")))
        #expect(
            AccessPolicy.check(listen: "192.168.4.1", tls: true, paired: false)
                == .failure(.needsPairing("192.168.4.1"))
        )
        #expect(
            AccessPolicy.check(listen: "0.0.0.0", tls: true, paired: true)
                == .success(AccessPolicy(loopbackOnly: false))
        )
    }

    @Test func aRemotePeerNeedsTheSecret() {
        let policy = AccessPolicy(loopbackOnly: false)
        #expect(policy.admit(peer: "127.0.0.1", secretMatches: false) == .admit)
        #expect(policy.admit(peer: "192.168.4.20", secretMatches: true) == .admit)
        guard case .refuse(let reason) = policy.admit(peer: "192.168.4.20", secretMatches: false) else {
            Issue.record("admitted a remote peer without the secret")
            return
        }
        #expect(reason.contains("wearbridge-phone dashboard pair"))
        #expect(policy.admit(peer: "128.0.0.1", secretMatches: false) != .admit)
        #expect(policy.admit(peer: nil, secretMatches: false) != .admit)
    }

    @Test func secretsCompareWhole() {
        #expect(SecretComparison.equal(Array("abcd".utf8), Array("abcd".utf8)))
        #expect(!SecretComparison.equal(Array("abcd".utf8), Array("abce".utf8)))
        #expect(!SecretComparison.equal(Array("abcd".utf8), Array("abc".utf8)))
    }
}

@Suite struct TrackViewTests {
    @Test func placesFixesInMetresFromTheFirst() throws {
        var view = TrackView()
        let first = view.place(latitude: 52.0, longitude: 13.0, time: 1000, paused: false)
        #expect(first?.east == 0 && first?.north == 0 && first?.time == 0 && first?.paused == false)
        // 0.001 degrees north is about 111 m; east at 52 degrees about 68.7 m.
        let placed = view.place(latitude: 52.001, longitude: 13.0, time: 1010, paused: true)
        let north = try #require(placed)
        #expect(abs(north.north - 111.26) < 0.1 && abs(north.east) < 0.01 && north.time == 10 && north.paused)
        let east = view.place(latitude: 52.0, longitude: 13.001, time: 1020, paused: false)
        #expect(abs((east?.east ?? 0) - 68.68) < 0.1)
    }

    @Test func refusesPositionsOffTheGlobe() {
        var view = TrackView()
        #expect(view.place(latitude: .nan, longitude: 13, time: 0, paused: false) == nil)
        #expect(view.place(latitude: 91, longitude: 13, time: 0, paused: false) == nil)
        #expect(view.origin == nil)
    }

    @Test func aCourseAndTheTrackShareOneFrameWhicheverCameFirst() throws {
        let course = [GeoPoint(latitude: 52.0, longitude: 13.0), GeoPoint(latitude: 52.001, longitude: 13.0)]
        var before = TrackView()
        let placed = before.place(course: course)
        let drawn = try #require(placed)
        #expect(drawn[0] == LocalPoint(east: 0, north: 0) && abs(drawn[1].north - 111.26) < 0.1)
        let onCourse = before.place(latitude: 52.0005, longitude: 13.0, time: 500, paused: false)
        let fix = try #require(onCourse)
        #expect(abs(fix.north - 55.63) < 0.1 && fix.time == 0, "the fix lies on the course, its time from itself")
        var after = TrackView()
        _ = after.place(latitude: 52.001, longitude: 13.0, time: 500, paused: false)
        let laterPlaced = after.place(course: course)
        let later = try #require(laterPlaced)
        #expect(abs(later[0].north + 111.26) < 0.1 && abs(later[1].north) < 0.01, "in the track's own frame")
        let off = after.place(course: [GeoPoint(latitude: 95, longitude: 0)])
        let none = after.place(course: [])
        #expect(off == nil && none == nil)
    }
}

@Suite struct PauseTransitionTests {
    @Test(arguments: [
        ("paused", PauseTransition?.some(.pauses)), ("auto_paused", .pauses), ("resumed", .resumes),
        ("auto_resumed", .resumes), ("session_started", .resumes), ("split", nil), ("session_ended", nil),
        ("gps_lost", nil), ("", nil), ("PAUSED", nil),
    ])
    func readsTheDataLogsOwnNames(kind: String, transition: PauseTransition?) {
        #expect(PauseTransition(storedKind: kind) == transition)
    }
}
