import ATT
import Engine
import Foundation
import Harness
import HeartRate
import SessionCore
import Testing
import TrackCore

@testable import Store

/// Events are typed from the core to the sinks; only Store turns them into a `kind` and a
/// `detail`, and those strings are the on-disk format, which `show --json` prints: they are the
/// ones earlier versions wrote, byte for byte.
@Suite("Stored format")
struct StoredFormatTests {
    private static let t = GPSTime(seconds: 1_750_000_000)

    /// Every event against the kind and detail JSON the string-typed version wrote for it.
    @Test(arguments: [
        (
            SessionEvent.started(TimeAnchor(source: .gps, seconds: 1_750_000_000)), "session_started",
            #"{"anchor":"gps","started_at":1750000000}"#
        ),
        (.paused, "paused", "{}"),
        (.resumed, "resumed", "{}"),
        (.ended(.command), "session_ended", "{}"),
        (.ended(.abandoned), "session_abandoned", "{}"),
        (
            .recovered(distance: 1234.5, lastFix: t), "session_recovered",
            #"{"distance_m":1234.5,"last_fix":1750000000}"#
        ),
        (.recovered(distance: 0, lastFix: nil), "session_recovered", #"{"distance_m":0}"#),
        (.restartGap(down: 30), "restart_gap", #"{"down_s":30}"#),
        (.track(.autoPaused(at: t)), "auto_paused", "{}"),
        (.track(.autoResumed(at: t, pausedFor: 12.5)), "auto_resumed", #"{"paused_s":12.5}"#),
        (
            .track(.split(Split(index: 2, distance: 1000.5, duration: 301.25, endTimer: 602))), "split",
            #"{"distance_m":1000.5,"duration_s":301.25,"end_timer_s":602,"index":2}"#
        ),
        (.track(.gpsLost(lastFix: t)), "gps_lost", "{}"),
        (.track(.gpsRegained(at: t, after: 7)), "gps_regained", #"{"after_s":7}"#),
        (
            .track(.gapBridged(from: t, to: GPSTime(seconds: 1_750_000_030), distance: 90)), "gap_bridged",
            #"{"distance_m":90,"duration_s":30,"from":1750000000}"#
        ),
        (.track(.timelineReset(at: t)), "timeline_reset", "{}"),
        (.track(.filterReset(at: t)), "filter_reset", "{}"),
        (.gpsdConnected, "gpsd_connected", "{}"),
        (.gpsdDisconnected, "gpsd_disconnected", "{}"),
        (.deviceAdded(path: "/dev/ttyUSB0"), "device_added", #"{"path":"/dev/ttyUSB0"}"#),
        (.deviceRemoved(path: "/dev/ttyUSB0"), "device_removed", #"{"path":"/dev/ttyUSB0"}"#),
        (.strap(.found(address: "F1:F1:F1:F1:F1:F1")), "strap_found", #"{"address":"F1:F1:F1:F1:F1:F1"}"#),
        (.strap(.lost(reason: "no beat for 5 s")), "strap_lost", #"{"reason":"no beat for 5 s"}"#),
        (.strap(.regained(after: 15.5)), "strap_regained", #"{"after_s":15.5}"#),
        (.strap(.contactLost), "contact_lost", "{}"),
        (.strap(.contactRegained), "contact_regained", "{}"),
        (.strap(.battery(level: 80)), "strap_battery", #"{"percent":80}"#),
        (.strapLocation("chest"), "strap_location", #"{"location":"chest"}"#),
        (
            .malformedBeat(payload: [0x10, 0x3c], reason: "truncated"), "hrm_malformed",
            #"{"payload":"103c","reason":"truncated"}"#
        ),
    ])
    func eventsAreStoredAsBefore(event: SessionEvent, kind: String, detail: String) {
        #expect(event.storedKind == kind)
        #expect(SessionLog.detailJSON(event.storedDetail) == detail)
    }

    @Test func storageEventsNameTheirCause() {
        let full = SessionEvent.storageFailed(StorageFailure(.full, "database or disk is full (/d/w.sqlite)"))
        #expect(full.storedKind == "storage_full")
        #expect(
            SessionLog.detailJSON(full.storedDetail)
                == #"{"cause":"full","reason":"database or disk is full (/d/w.sqlite)"}"#
        )
        #expect(SessionEvent.storageFailed(StorageFailure(.io, "disk I/O error")).storedKind == "storage_failed")
        let recovered = SessionEvent.storageRecovered(
            after: 42.5,
            dropped: DropCounts(fixes: 300, beats: 30, events: 2)
        )
        #expect(recovered.storedKind == "storage_recovered")
        #expect(
            SessionLog.detailJSON(recovered.storedDetail)
                == #"{"after_s":42.5,"beats_dropped":30,"events_dropped":2,"fixes_dropped":300}"#
        )
    }

    /// A log written by the string-typed version (rows as it wrote them, its command-reply JSON)
    /// opens, answers its old command ids and rebuilds its open session through the engine core.
    @Test func aLogWrittenByTheEarlierVersionStillOpensAndResumes() async throws {
        let directory = try temporaryDirectory("oldlog")
        _ = try SessionLog.open(directory: directory)
        let path = "\(directory)/\(SessionLog.fileName)"
        let script = """
            import sqlite3
            c = sqlite3.connect('\(path)')
            c.execute("insert into session (id, state, activity, started_at, start_anchor) values ('old', 'active', 'running', 1750000000, 'gps')")
            c.execute('''insert into command values ('c-start', 'old', 2, 'start', 1, '{"commandID":"c-start","command":"start","accepted":true,"message":"session started","sessionID":"old","state":{"active":{}}}', 999)''')
            c.execute('''insert into event values ('old', 1, 'session_started', 1750000000, null, '{"anchor":"gps","started_at":1750000000}')''')
            for i in range(60):
                c.execute("insert into fix (session_id, seq, received, time, mode, lat, lon, epx, epy, eph, speed, track, eps, verdict, smoothed_lat, smoothed_lon) values ('old', ?, ?, ?, 3, 48.137, ?, 3, 3, 4, 3, 90, 0.3, 'accepted', null, null)",
                          (3 + i, 1000.05 + i, 1750000000 + i, 11.575 + i * 3 / 74280.0))
            c.execute('''insert into command values ('c-pause', 'old', 63, 'pause', 1, '{"state":{"paused":{"_0":"command"}},"accepted":true,"commandID":"c-pause","command":"pause","sessionID":"old","message":"session paused"}', 1060)''')
            c.execute("insert into heart_rate values ('old', 64, 1061, null, 140, 'detected', null, '[438]', x'0e8cb601')")
            c.commit()
            """
        let made = try runCommand("/usr/bin/python3", ["-c", script])
        try #require(made.status == 0, "\(made.err)")

        let log = try SessionLog.open(directory: directory)
        let pause = try #require(try await log.reply(toCommand: "c-pause"))
        #expect(pause.accepted && pause.state == .paused(.command) && pause.sessionID == "old")
        let journal = try log.journal(of: "old")
        #expect(journal.entries.count == 63 && journal.nextSeq == 65)
        guard case .heartRate(let beat)? = journal.entries.last else {
            Issue.record("no beat in the journal")
            return
        }
        #expect(beat.contact == .detected && beat.rrIntervals == [438] && beat.payload == [0x0e, 0x8c, 0xb6, 0x01])
        let engine = SessionEngine.recovering(
            [
                RecoveredSession(
                    id: "old",
                    activity: .running,
                    startedAt: TimeAnchor(source: .gps, seconds: 1_750_000_000),
                    journal: journal.entries,
                    nextSeq: journal.nextSeq
                )
            ],
            configuration: .init(session: .init()),
            ids: SessionIDGenerator(seed: 1),
            now: Instant(monotonic: 5000, system: 0)
        )
        let session = try #require(engine.controller.session)
        #expect(engine.controller.lifecycle.state == .paused(.command))
        #expect(abs(session.track.distance - 177) < 10, "\(session.track.distance)")
        let detail = try log.detail(matching: "old")
        #expect(detail.events.map(\.kind) == ["session_started"] && detail.fixCount == 60 && detail.beatCount == 1)
    }
}
