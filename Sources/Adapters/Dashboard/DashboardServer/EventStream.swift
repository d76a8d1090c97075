import DashboardCore
import Foundation
import Hummingbird
import Logging
import NIOCore
import PhoneServer
import ProcessClock

/// One page's live stream: the wearable's messages from the durable inbox with `id:` = seq (so
/// `Last-Event-ID` resumes after a drop or a phone restart with nothing missed), the newest
/// snapshot, the link strip once a second, and the session's track and beats as they are
/// backfilled. It wakes on the inbox's commits, never polls the database on a timer of its own.
struct EventStream: Sendable {
    let wearable: String
    let inbox: Inbox
    /// The phone's wall clock, shared with its other shells.
    let clock: WallClock
    let limits: LinkLimits
    let closing: ShutdownFlag
    let logger: Logger

    /// Writes until the browser goes away or the server shuts down; `resume`: the last seq the page has.
    func run(resume: Int?, writer: inout any ResponseBodyWriter) async throws {
        let (id, wakes) = inbox.changes.follow()
        defer { inbox.changes.unfollow(id) }
        var cursor = Cursor(resume: resume)
        try await write(ServerSentEvent(event: "open", data: "{}", retry: 1000), &writer)
        var lastLink = ContinuousClock.now - .seconds(2)
        try await step(&cursor, &writer)
        for await _ in wakes {
            if closing.isSet { break }
            try await step(&cursor, &writer)
            if ContinuousClock.now - lastLink >= .milliseconds(900) {
                lastLink = ContinuousClock.now
                try await sendRace(try await sendLink(&writer), &cursor, &writer)
            }
        }
        try await writer.write(ByteBuffer(string: "event: bye\ndata: {}\n\n"))
    }

    /// Where this page is: the epoch it follows, the last message seq sent, the last snapshot
    /// sent, and how far the session's backfilled rows were sent.
    struct Cursor {
        var epoch: String?
        var seq: Int?
        var resume: Int?
        var snapshotSeq = 0
        var session: String?
        var rowSeq = 0
        var paused = false
        var view = TrackView()
        var race = RaceBoard()
        /// The race last sent (nil inside: "no race" was sent); nil: none sent yet.
        var raceSent: RaceBody??

        init(resume: Int?) { self.resume = resume }
    }

    private func step(_ cursor: inout Cursor, _ writer: inout any ResponseBodyWriter) async throws {
        let now = clock.now()
        guard let link = try inbox.link.record(wearable: wearable), let epoch = link.epoch else { return }
        if cursor.epoch != epoch {
            // A new page, or the wearable's data log is new (another epoch): say so, start over in it.
            let newest = try inbox.link.newestSession(wearable: wearable, epoch: epoch)
            let fresh = cursor.epoch == nil ? cursor.resume : nil
            cursor = Cursor(resume: nil)
            cursor.epoch = epoch
            // A page that has nothing starts at the newest session's start: its splits and pauses.
            cursor.seq = fresh ?? max(0, (newest?.seq ?? 1) - 1)
            cursor.session = newest?.session
            try await write(
                ServerSentEvent(
                    event: "hello",
                    data: try JSONText.encode(
                        Hello(
                            wearable: wearable,
                            epoch: epoch,
                            resumedAfter: fresh,
                            session: newest?.session,
                            serverTimeMs: Int64(now * 1000)
                        )
                    )
                ),
                &writer
            )
            try await sendRace(try await sendLink(&writer), &cursor, &writer)
        }
        while true {
            let messages = try inbox.link.messages(wearable: wearable, epoch: epoch, after: cursor.seq ?? 0, limit: 200)
            for message in messages {
                let body = Stamped(
                    MessageJSON.body(message),
                    serverTimeMs: Int64(clock.now() * 1000)
                )
                try await write(
                    ServerSentEvent(id: message.seq, event: "message", data: try JSONText.encode(body)),
                    &writer
                )
                cursor.seq = message.seq
                if message.kind == .sessionStarted, let session = message.session, session != cursor.session {
                    cursor.session = session
                    cursor.rowSeq = 0
                    cursor.paused = false
                    cursor.view = TrackView()
                }
            }
            if messages.count < 200 { break }
        }
        if let snapshot = try inbox.link.snapshot(wearable: wearable), snapshot.epoch == epoch,
            snapshot.seq != cursor.snapshotSeq
        {
            cursor.snapshotSeq = snapshot.seq
            let body = Stamped(
                LiveJSON.snapshot(snapshot, now: now),
                serverTimeMs: Int64(clock.now() * 1000)
            )
            // No `id:`: a snapshot is state, not history, and may overtake older messages.
            try await write(ServerSentEvent(event: "snapshot", data: try JSONText.encode(body)), &writer)
        }
        if let session = cursor.session {
            try await sendTrack(session, &cursor, &writer)
        }
    }

    private func sendTrack(
        _ session: String,
        _ cursor: inout Cursor,
        _ writer: inout any ResponseBodyWriter
    )
        async throws
    {
        while true {
            let rows = try inbox.backfill.rows(session: session, after: cursor.rowSeq, limit: 2000)
            guard !rows.isEmpty else { return }
            let after = cursor.rowSeq
            let courses = inbox.courses
            var track = TrackPiece(paused: cursor.paused, view: cursor.view) { name in
                try? courses.named(name)?.course
            }
            for record in rows { track.take(record) }
            cursor.rowSeq = rows.last?.seq ?? cursor.rowSeq
            cursor.paused = track.paused
            cursor.view = track.view
            let body = track.body(session: session, after: after, through: cursor.rowSeq)
            try await write(ServerSentEvent(event: "track", data: try JSONText.encode(body)), &writer)
            if rows.count < 2000 { return }
        }
    }

    /// The race panel, when this wearable has a race and its figures moved (sent with the link
    /// strip, about once a second, so the partner's age stays current).
    private func sendRace(
        _ own: SnapshotRecord?,
        _ cursor: inout Cursor,
        _ writer: inout any ResponseBodyWriter
    ) async throws {
        let now = clock.now()
        let race = try cursor.race.race(inbox: inbox, wearable: wearable, own: own, now: now)
        // Nothing before the first race; after that, only a change (a race that went is sent as null).
        guard race != nil || cursor.raceSent != nil, cursor.raceSent != .some(race) else { return }
        cursor.raceSent = .some(race)
        let body = RaceEvent(race: race, serverTimeMs: Int64(now * 1000))
        try await write(ServerSentEvent(event: "race", data: try JSONText.encode(body)), &writer)
    }

    /// Writes the link strip; returns the newest snapshot it was judged with, for the race panel.
    private func sendLink(_ writer: inout any ResponseBodyWriter) async throws -> SnapshotRecord? {
        let now = clock.now()
        let (link, snapshot) = try LiveJSON.link(
            try inbox.link.record(wearable: wearable),
            wearable: wearable,
            inbox: inbox,
            now: now,
            limits: limits
        )
        let battery = try inbox.link.strapBattery(wearable: wearable)
        let body = LinkEvent(
            link: link,
            snapshotAgeS: snapshot.map { (max(0, now - $0.receivedAt) * 10).rounded() / 10 },
            strapBatteryPercent: battery?.percent,
            strapBatteryAgeS: battery.map { (max(0, now - $0.receivedAt)).rounded() }
        )
        try await write(ServerSentEvent(event: "link", data: try JSONText.encode(body)), &writer)
        return snapshot
    }

    private func write(_ event: ServerSentEvent, _ writer: inout any ResponseBodyWriter) async throws {
        try await writer.write(ByteBuffer(string: event.text))
    }
}
