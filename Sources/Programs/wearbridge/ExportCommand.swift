import ArgumentParser
import Export
import Foundation
import Store
import TrackCore

/// `wearbridge export`: a logged session as GPX, TCX, FIT or CSV, streamed from the data log through
/// the core (the exported distance is the session's), written to a temporary file and renamed.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export sessions as GPX, TCX, FIT or CSV.",
        discussion: """
            wearbridge export SESSION [--format gpx|tcx|fit|csv] [-o FILE | -o -]
            wearbridge export --all [--since 2025-06-01] --dir DIR [--format ...] [--force]
            Without -o the file is named by the session's start time and id, in the current \
            directory (--dir with --all). An existing file is not replaced without --force. A \
            session with no accepted fix is an error (there is no track to give). Exit status: 0, \
            1 on a write error, 65 for a session that cannot be exported, 66 for no such session.
            """
    )

    enum Track: String, ExpressibleByArgument {
        case smoothed, raw
    }

    @OptionGroup var storage: StorageOptions

    @Option(help: "gpx, tcx, fit or csv.")
    var format: ExportFormat = .gpx

    @Option(name: [.customShort("o"), .long], help: "Output file, or - for standard output.")
    var output: String?

    @Option(help: "smoothed (the track the distance was measured on) or raw (the receiver's fixes).")
    var track: Track = .smoothed

    @Flag(help: "CSV: one row per beat with its RR intervals instead of one per fix.")
    var beats = false

    @Flag(help: "Export every session (with --dir).")
    var all = false

    @Option(help: "With --all: sessions started on or after this date (YYYY-MM-DD, UTC).")
    var since: String?

    @Option(help: "With --all: the directory the files go to.")
    var dir: String?

    @Flag(help: "Replace existing files.")
    var force = false

    @Argument(help: "A session id or unique prefix.")
    var session: String?

    func validate() throws {
        if all {
            guard dir != nil, session == nil, output == nil else {
                throw ValidationError("--all takes --dir and neither a session nor -o")
            }
        } else if session == nil {
            throw ValidationError("name a session (wearbridge sessions lists them), or use --all --dir DIR")
        }
        if since != nil, Self.day(since!) == nil { throw ValidationError("--since: a date as YYYY-MM-DD") }
    }

    func run() throws {
        let log = try storage.open()
        if all {
            try exportAll(log)
            return
        }
        let detail: SessionDetail
        do {
            detail = try log.detail(matching: session!)
        } catch {
            StandardError.line("wearbridge: \(error)")
            throw ExitCode(66)
        }
        let target = output == "-" ? nil : (output ?? Self.fileName(detail.session, format))
        try export(detail.session, from: log, to: target)
    }

    private func exportAll(_ log: SessionLog) throws {
        let from = since.flatMap(Self.day) ?? -.infinity
        var failed = 0
        for stored in try log.sessions() where stored.startedAt >= from && stored.state == "ended" {
            let target = (dir! as NSString).appendingPathComponent(Self.fileName(stored, format))
            if !force, FileManager.default.fileExists(atPath: target) {
                StandardOutput.line("kept    \(target) (exists)")
                continue
            }
            do {
                try export(stored, from: log, to: target)
            } catch {
                failed += 1
            }
        }
        if failed > 0 { throw ExitCode(1) }
    }

    private func export(_ stored: StoredSession, from log: SessionLog, to target: String?) throws {
        guard let activity = Activity(rawValue: stored.activity) else {
            StandardError.line("wearbridge: session \(stored.id) has an unknown activity \(stored.activity)")
            throw ExitCode(65)
        }
        let session = ExportSession(
            id: stored.id,
            activity: activity,
            startedAt: try startTime(stored, log),
            smoothed: track == .smoothed,
            distanceSource: DistanceSource(rawValue: stored.distanceSource) ?? .gps,
            footpodFactors: stored.footpodFactors,
            energy: stored.energy,
            course: try log.courseName(followedBy: stored.id)
        )
        do {
            let file = try OutputFile(target: target)
            let summary = try ExportRun.write(
                ExportFormat(rawValue: format.rawValue) ?? .gpx,
                session,
                journal: { body in try log.streamJournal(of: stored.id) { try body($0.entry, $0.time) } },
                into: file,
                beats: beats
            )
            try file.commit(overwrite: force || output != nil)
            if let target {
                StandardOutput.line(
                    "wrote   \(target) (\(format.rawValue), \(kilometres(summary.distance)) km, \(summary.accepted) \(session.distanceSource == .gps ? "fixes" : "readings"))"
                )
            }
        } catch let error as ExportError {
            StandardError.line("wearbridge: \(error)")
            if case .noPoints = error { throw ExitCode(65) }
            throw ExitCode(1)
        }
    }

    /// The start the files carry: the session's own when GPS anchored it; when only the system
    /// clock did (a Pi without a real-time clock may think it is 1970), the first fix's GPS time.
    private func startTime(_ stored: StoredSession, _ log: SessionLog) throws -> Double {
        guard stored.startAnchor != "gps" else { return stored.startedAt }
        return try log.firstFixTime(of: stored.id) ?? stored.startedAt
    }

    /// "2025-06-14T0631Z_bda2f472.gpx": sorts by start time, unique by id.
    static func fileName(_ session: StoredSession, _ format: ExportFormat) -> String {
        let time = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: session.startedAt))
            .replacingOccurrences(of: ":", with: "").dropLast(3)
        return "\(time)Z_\(session.id.prefix(8)).\(format.rawValue)"
    }

    static func day(_ text: String) -> Double? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.date(from: text)?.timeIntervalSince1970
    }

    private func kilometres(_ metres: Double) -> String { String(format: "%.2f", metres / 1000) }
}

extension ExportFormat: ExpressibleByArgument {}
