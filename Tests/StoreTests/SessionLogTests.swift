import Course
import Energy
import Engine
import Foundation
import Harness
import PhoneLinkContract
import SessionCore
import SpeedSensors
import SyntheticReceivers
import Testing
import TrackCore

@testable import Store

@Suite("Data log (real SQLite files)")
struct SessionLogTests {
    private func fix(_ i: Int) -> Fix { loggedFix(i) }

    private func reply(_ id: String, _ command: SessionCommand, session: String) -> CommandReply {
        CommandReply(commandID: id, command: command, accepted: true, message: "ok", sessionID: session, state: .active)
    }

    @Test func durableWALAndTheJournalComesBackExactly() async throws {
        let directory = try temporaryDirectory("log")
        let log = try SessionLog.open(directory: directory)
        let pragmas = try log.pragmas()
        #expect(pragmas.journalMode == "wal")
        #expect(pragmas.synchronous == 2, "FULL: a committed batch survives power loss")

        let anchor = TimeAnchor(source: .gps, seconds: 1_750_000_000)
        var rows: [SessionRow] = [
            .begin(sessionID: "abc", activity: .walking, startedAt: anchor),
            .command(sessionID: "abc", seq: 1, reply("c1", .start, session: "abc"), receivedAt: 999),
        ]
        for i in 0..<20 {
            let verdict: LoggedVerdict = i == 5 ? .rejected(.outlier) : .accepted(smoothed: fix(i).position!)
            rows.append(.fix(sessionID: "abc", seq: 2 + i, fix(i), verdict))
        }
        rows.append(.command(sessionID: "abc", seq: 22, reply("c2", .pause, session: "abc"), receivedAt: 1020))
        let split = Split(index: 1, distance: 1000, duration: 300, endTimer: 300)
        rows.append(.event(seq: 23, Announcement(.track(.split(split)), sessionID: "abc", receivedAt: 1021)))
        try await log.write(WriteBatch(id: 1, rows: rows.map(LogRow.session)))

        let journal = try log.journal(of: "abc")
        #expect(journal.nextSeq == 24)
        #expect(journal.entries.count == 22)
        #expect(journal.entries.first == .command(.start, id: "c1"))
        #expect(journal.entries[1] == .fix(fix(0)), "every field of a fix, bit for bit")
        #expect(journal.entries.last == .command(.pause, id: "c2"))
        #expect(try await log.reply(toCommand: "c2") == reply("c2", .pause, session: "abc"))
        #expect(try await log.reply(toCommand: "nope") == nil)
        #expect(try log.openSessions().map(\.id) == ["abc"])

        let detail = try log.detail(matching: "ab")
        #expect(detail.fixCount == 20)
        #expect(detail.splits == [Split(index: 1, distance: 1000, duration: 300, endTimer: 300)])
        #expect(detail.session.activity == "walking" && detail.session.startAnchor == "gps")
        #expect(throws: StoreError.noSuchSession("zz")) { try log.detail(matching: "zz") }
    }

    @Test func heartRateRowsKeepTheirPayloadAndComeBackInTheJournal() async throws {
        let directory = try temporaryDirectory("hr")
        let log = try SessionLog.open(directory: directory)
        let samples = [
            HeartRateSample(
                bpm: 72,
                contact: .detected,
                rrIntervals: [853, 860],
                receivedAt: 10.5,
                payload: [0x16, 0x48, 0x55, 0x03, 0x5C, 0x03]
            ),
            HeartRateSample(
                bpm: 300,
                contact: .notSupported,
                energyExpended: 12,
                receivedAt: 11.5,
                payload: [0x09, 0x2C, 0x01, 0x0C, 0x00]
            ),
        ]
        var rows: [SessionRow] = [
            .begin(sessionID: "hr", activity: .running, startedAt: TimeAnchor(source: .system, seconds: 5))
        ]
        for (i, sample) in samples.enumerated() {
            rows.append(
                .heartRate(sessionID: "hr", seq: i + 1, sample, time: i == 0 ? GPSTime(seconds: 1_750_000_000) : nil)
            )
        }
        try await log.write(WriteBatch(id: 1, rows: rows.map(LogRow.session)))
        let beats = try log.beats(of: "hr")
        #expect(beats.map(\.payload) == samples.map(\.payload))
        #expect(beats.map(\.contact) == ["detected", "not_supported"])
        #expect(beats.map(\.rrIntervals) == [[853, 860], []] && beats.map(\.energyExpended) == [nil, 12])
        #expect(beats.map(\.time) == [1_750_000_000, nil] && beats.map(\.received) == [10.5, 11.5])
        let journal = try log.journal(of: "hr")
        #expect(journal.entries == samples.map { .heartRate($0) } && journal.nextSeq == 3)
        #expect(try log.detail(matching: "hr").beatCount == 2)
    }

    /// A barometer's readings and a fix's vertical error come back in the journal, in sequence.
    @Test func pressuresAndVerticalErrorsComeBackInTheJournal() async throws {
        let directory = try temporaryDirectory("pressure")
        let log = try SessionLog.open(directory: directory)
        var withEPV = fix(0)
        withEPV.altitude = 41.5
        withEPV.verticalError = 23.25
        let pressures = [
            PressureSample(kilopascal: 100.9125, receivedAt: 10.25, time: 1_750_000_000.5),
            PressureSample(kilopascal: 100.9131, receivedAt: 11.25, time: nil),
        ]
        let rows: [SessionRow] = [
            .begin(sessionID: "p", activity: .walking, startedAt: TimeAnchor(source: .gps, seconds: 1_750_000_000)),
            .pressure(sessionID: "p", seq: 1, pressures[0]),
            .fix(sessionID: "p", seq: 2, withEPV, .accepted(smoothed: withEPV.position!)),
            .pressure(sessionID: "p", seq: 3, pressures[1]),
        ]
        try await log.write(WriteBatch(id: 1, rows: rows.map(LogRow.session)))
        let journal = try log.journal(of: "p")
        #expect(journal.entries == [.pressure(pressures[0]), .fix(withEPV), .pressure(pressures[1])])
        #expect(journal.nextSeq == 4)
    }

    /// Footpod and treadmill samples go into `speed` whole (their bytes too), the session says
    /// where its distance comes from, and the journal gives them back in sequence with the beats.
    @Test func speedSamplesAndTheDistanceSourceComeBackExactly() async throws {
        let directory = try temporaryDirectory("speed")
        let log = try SessionLog.open(directory: directory)
        let samples = [
            SpeedSensorSample(
                source: .footpod,
                reading: SpeedSample(speed: 3.0, cadence: 172, strideLength: 1.05, totalDistance: 1234.5),
                receivedAt: 10.25,
                payload: [0x07, 0x00, 0x03, 0xAC, 0x69, 0x00, 0x39, 0x30, 0x00, 0x00],
                time: 1_700_000_001
            ),
            SpeedSensorSample(
                source: .treadmill,
                reading: SpeedSample(speed: 2.5, totalDistance: 400, inclination: 1.5, elapsedTime: 160),
                receivedAt: 10.75,
                payload: [0x0C, 0x04],
                time: 1_700_000_001.5
            ),
        ]
        var rows: [SessionRow] = [
            .begin(
                sessionID: "in",
                activity: .running,
                startedAt: TimeAnchor(source: .system, seconds: 1_700_000_000),
                source: .treadmill
            )
        ]
        for (i, sample) in samples.enumerated() { rows.append(.speed(sessionID: "in", seq: i + 1, sample)) }
        try await log.write(WriteBatch(id: 1, rows: rows.map(LogRow.session)))
        let journal = try log.journal(of: "in")
        #expect(journal.entries == samples.map { .speed($0) } && journal.nextSeq == 3)
        #expect(try log.sessions().first?.distanceSource == "treadmill")
    }

    /// The body mass, load and walking model a session began with are in its row: recovery and
    /// exports cost its energy as the live session did.
    @Test func aSessionsEnergySettingsComeBack() async throws {
        let directory = try temporaryDirectory("energy")
        let log = try SessionLog.open(directory: directory)
        let settings = EnergySettings(
            carriage: try Carriage.checked(bodyMass: 81.5, load: 22.5).get(),
            walking: .pandolf
        )
        let rows: [SessionRow] = [
            .begin(
                sessionID: "e",
                activity: .walking,
                startedAt: TimeAnchor(source: .gps, seconds: 1),
                energy: settings
            ),
            .begin(sessionID: "n", activity: .cycling, startedAt: TimeAnchor(source: .gps, seconds: 2)),
        ]
        try await log.write(WriteBatch(id: 1, rows: rows.map(LogRow.session)))
        let sessions = Dictionary(uniqueKeysWithValues: try log.sessions().map { ($0.id, $0) })
        #expect(sessions["e"]?.energy == settings)
        #expect(sessions["n"]?.energy == nil)
        #expect(try log.openSessions().first { $0.id == "e" }?.energy == settings)
    }

    /// The pedometer's readings come back in the journal with their steps and stillness, beside a
    /// footpod's that carry neither, and go to the phone's backfill with them (its replay's
    /// auto-pause and steps are the wearable's).
    @Test func aPedometersStepsAndStillnessComeBack() async throws {
        let directory = try temporaryDirectory("steps")
        let log = try SessionLog.open(directory: directory)
        let steps = SpeedSensorSample(
            source: .steps,
            reading: SpeedSample(
                speed: 3.4,
                cadence: 171,
                strideLength: 1.21,
                totalDistance: 512.5,
                steps: 424,
                still: false
            ),
            receivedAt: 100.25,
            time: 1_750_000_100
        )
        let standing = SpeedSensorSample(
            source: .steps,
            reading: SpeedSample(speed: 0, totalDistance: 512.5, steps: 424, still: true),
            receivedAt: 101.25,
            time: 1_750_000_101
        )
        let footpod = SpeedSensorSample(
            source: .footpod,
            reading: SpeedSample(speed: 3.3, cadence: 170, totalDistance: 20),
            receivedAt: 102,
            time: 1_750_000_102
        )
        let rows: [SessionRow] = [
            .begin(sessionID: "p", activity: .running, startedAt: TimeAnchor(source: .gps, seconds: 1)),
            .speed(sessionID: "p", seq: 1, steps),
            .speed(sessionID: "p", seq: 2, standing),
            .speed(sessionID: "p", seq: 3, footpod),
        ]
        try await log.write(WriteBatch(id: 1, rows: rows.map(LogRow.session)))
        let journal = try log.journal(of: "p")
        #expect(journal.entries == [.speed(steps), .speed(standing), .speed(footpod)])
        let chunk = try #require(try log.backfillChunk(session: "p", after: 0, limit: 10))
        let speeds = chunk.rows.compactMap { if case .speed(let row) = $0.row { row } else { nil } }
        #expect(speeds.map { $0.hasSteps ? Int($0.steps) : nil } == [424, 424, nil])
        #expect(speeds.map { $0.hasStill ? $0.still : nil } == [false, true, nil])
    }

    /// A batch is one transaction: when SQLite cannot take it (here `max_page_count`, as a full
    /// card), none of it is on disk, the failure says "full" with the file, and the same rows
    /// go in whole once there is room.
    /// A course's parts are kept until the course is; then the course, under its name (a newer
    /// version replacing it), and its parts are gone; all of it in the file after reopening.
    @Test func courseRowsAreKeptAndTheirPartsGoOnceTheCourseIs() async throws {
        let directory = try temporaryDirectory("courses")
        var log = try SessionLog.open(directory: directory)
        let parts = (0..<3).map {
            CoursePart(
                courseID: "c-1",
                index: $0,
                count: 3,
                totalBytes: 9000,
                bytes: [UInt8](repeating: UInt8($0), count: 10)
            )
        }
        let other = CoursePart(courseID: "c-9", index: 0, count: 2, totalBytes: 5000, bytes: [7])
        try await log.write(WriteBatch(id: 1, rows: (parts.prefix(2) + [other]).map { .session(.coursePart($0)) }))
        #expect(try log.courseParts() == Array(parts.prefix(2)) + [other])
        try await log.write(
            WriteBatch(
                id: 2,
                rows: [
                    .session(.coursePart(parts[2])), .session(.courseKept(id: "c-1", name: "Ring", bytes: [1, 2, 3])),
                ]
            )
        )
        #expect(try log.courseParts() == [other])
        try await log.write(WriteBatch(id: 3, rows: [.session(.courseKept(id: "c-2", name: "Ring", bytes: [4]))]))
        try await log.write(WriteBatch(id: 4, rows: [.session(.courseKept(id: "c-3", name: "Prater", bytes: [5]))]))
        log = try SessionLog.open(directory: directory)
        #expect(try log.courses().map { "\($0.name) \($0.id) \($0.bytes)" } == ["Prater c-3 [5]", "Ring c-2 [4]"])
        #expect(try log.courseParts() == [other])
    }

    /// The course a session follows and its accepted positions, as a restart reads them back.
    @Test func theCourseASessionFollowsComesBackWithItsAcceptedPositions() async throws {
        let log = try SessionLog.open(directory: try temporaryDirectory("followed"))
        let anchor = TimeAnchor(source: .gps, seconds: 1_750_000_000)
        var rows: [SessionRow] = [.begin(sessionID: "s", activity: .running, startedAt: anchor)]
        #expect(try log.courseFollowed(by: "s") == nil)
        let following = Announcement(.course(.following(name: "Prater", length: 5000)), sessionID: "s", receivedAt: 999)
        rows.append(.event(seq: 1, following))
        for i in 0..<6 {
            let verdict: LoggedVerdict = i == 2 ? .rejected(.outlier) : .accepted(smoothed: fix(i).position!)
            rows.append(.fix(sessionID: "s", seq: 2 + i, fix(i), verdict))
        }
        try await log.write(WriteBatch(id: 1, rows: rows.map(LogRow.session)))
        let followed = try #require(try log.courseFollowed(by: "s"))
        #expect(followed.name == "Prater" && followed.track.count == 5)
        #expect(followed.track.map(\.at) == [0, 1, 3, 4, 5].map { fix($0).receivedAt! })
        #expect(followed.track[2].position == fix(3).position!)
    }

    @Test func aBatchTheDiskCannotTakeLeavesNothingAndSaysFull() async throws {
        let directory = try temporaryDirectory("full")
        let log = try SessionLog.open(directory: directory)
        try await log.write(
            WriteBatch(
                id: 1,
                rows: [
                    .session(
                        .begin(sessionID: "f", activity: .running, startedAt: TimeAnchor(source: .gps, seconds: 1))
                    )
                ]
            )
        )
        let pages = try await log.writer!.write { db in try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0 }
        try await log.writer!.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = \(pages)") }
        let rows: [SessionRow] = (0..<2000).map {
            .fix(sessionID: "f", seq: $0 + 1, fix($0), .accepted(smoothed: fix($0).position!))
        }
        do {
            try await log.write(WriteBatch(id: 2, rows: rows.map(LogRow.session)))
            Issue.record("a batch larger than the file may grow was written")
        } catch {
            #expect(error.kind == .full && error.message.contains(log.path), "\(error)")
        }
        #expect(try log.journal(of: "f").entries.isEmpty, "all or nothing")
        try await log.writer!.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = 1000000") }
        try await log.write(WriteBatch(id: 3, rows: rows.map(LogRow.session)))
        #expect(try log.journal(of: "f").entries.count == 2000)
    }

    @Test func aForeignDatabaseIsRefusedAndLeftAlone() async throws {
        let directory = try temporaryDirectory("foreign")
        let path = "\(directory)/\(SessionLog.fileName)"
        let made = try runCommand(
            "/usr/bin/python3",
            [
                "-c",
                """
                import sqlite3; c = sqlite3.connect('\(path)'); c.execute('create table photos (id integer)'); c.commit()
                """,
            ]
        )
        #expect(made.status == 0, "\(made.err)")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            _ = try SessionLog.open(directory: directory)
        } throws: { error in
            guard case StoreError.foreign = error else { return false }
            return "\(error)".contains("photos")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "nothing written to someone else's file")
        #expect(throws: StoreError.self) { try SessionLog.openReadOnly(directory: directory) }
    }

    @Test func aCorruptFileIsAClearError() throws {
        let directory = try temporaryDirectory("corrupt")
        var garbage = [UInt8](repeating: 0, count: 8192)
        for i in garbage.indices { garbage[i] = UInt8((i * 7919 + 13) % 251) }
        try Data(garbage).write(to: URL(fileURLWithPath: "\(directory)/\(SessionLog.fileName)"))
        #expect {
            _ = try SessionLog.open(directory: directory)
        } throws: { error in
            guard case StoreError.corrupt = error else { return false }
            return "\(error)".contains(SessionLog.fileName)
        }
    }

    @Test func aDatabaseFromANewerWearbridgeIsNotTouched() throws {
        let directory = try temporaryDirectory("newer")
        _ = try SessionLog.open(directory: directory)
        let path = "\(directory)/\(SessionLog.fileName)"
        let made = try runCommand(
            "/usr/bin/python3",
            [
                "-c",
                """
                import sqlite3; c = sqlite3.connect('\(path)'); c.execute("insert into grdb_migrations values ('v9-future')"); c.commit()
                """,
            ]
        )
        #expect(made.status == 0, "\(made.err)")
        #expect(throws: StoreError.newerSchema(path: path, migration: "v9-future")) {
            try SessionLog.open(directory: directory)
        }
    }

    @Test func aMissingOrNonDirectoryStorageIsAClearError() throws {
        let directory = try temporaryDirectory("nodir")
        #expect {
            _ = try SessionLog.open(directory: "\(directory)/missing")
        } throws: { "\($0)".contains("does not exist") }
        FileManager.default.createFile(atPath: "\(directory)/file", contents: Data())
        #expect {
            _ = try SessionLog.open(directory: "\(directory)/file")
        } throws: { "\($0)".contains("not a directory") }
    }
}
