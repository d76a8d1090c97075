import ArgumentParser
import Store

/// Options of the commands that read the data log.
struct StorageOptions: ParsableArguments {
    @Option(help: "Storage directory (default: [storage] directory of the configuration).")
    var storage: String?

    @OptionGroup var configOptions: ConfigOptions

    /// The log, read-only, or a clear message and exit status 65/66.
    func open() throws -> SessionLog {
        let directory = try storage ?? configOptions.loadOrExit().storageDirectory
        do {
            return try SessionLog.openReadOnly(directory: directory)
        } catch {
            StandardError.line("wearbridge: \(error)")
            throw ExitCode(error is StoreError && !Self.isMissing(error) ? 65 : 66)
        }
    }

    private static func isMissing(_ error: any Error) -> Bool {
        if case StoreError.directory = error { return true }
        return false
    }
}

/// `wearbridge sessions`: every session in the data log, newest first.
struct SessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sessions", abstract: "List recorded sessions.")

    @Flag(help: "A JSON array instead of a table.")
    var json = false

    @OptionGroup var storage: StorageOptions

    func run() throws {
        let log = try storage.open()
        let sessions: [StoredSession]
        do {
            sessions = try log.sessions()
        } catch {
            StandardError.line("wearbridge: cannot read \(log.path): \(error)")
            throw ExitCode(65)
        }
        if json {
            StandardOutput.line(try JSONLine.encode(sessions.map(SessionJSON.init)))
            return
        }
        guard !sessions.isEmpty else {
            StandardOutput.line("no sessions yet")
            return
        }
        for session in sessions {
            let row = SessionJSON(session)
            StandardOutput.line(
                "\(session.id.prefix(8))  \(row.startedAt)  \(session.activity.padding(8))  \(session.state.padding(11))"
                    + "  \(TextFormat.format(session.distance / 1000, 2)) km  \(TextFormat.clock(session.elapsed))"
            )
        }
    }
}

/// `wearbridge show SESSION`: one session's summary, splits and events.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one session: summary, splits and events."
    )

    @Argument(help: "Session id or a unique prefix of it.")
    var session: String

    @Flag(help: "JSON instead of text.")
    var json = false

    @Flag(help: "With --json: every heart-rate sample (bpm, contact, energy, RR in 1/1024 s).")
    var beats = false

    @OptionGroup var storage: StorageOptions

    func run() throws {
        let log = try storage.open()
        var detail: SessionDetail
        do {
            detail = try log.detail(matching: session)
        } catch {
            StandardError.line("wearbridge: \(error)")
            throw ExitCode(error is StoreError ? 1 : 65)
        }
        if json {
            var document = SessionDetailJSON(detail)
            if beats { document.beats = try log.beats(of: detail.session.id).map(BeatJSON.init) }
            StandardOutput.line(try JSONLine.encode(document))
            return
        }
        let s = detail.session
        let row = SessionJSON(s)
        var lines = [
            "session   \(s.id) (\(s.activity), \(s.state)\(s.endReason.map { ", ended by \($0)" } ?? ""))",
            "started   \(row.startedAt) (\(s.startAnchor) clock)",
            "distance  \(TextFormat.format(s.distance / 1000, 3)) km",
            "elapsed   \(TextFormat.clock(s.elapsed))   moving \(TextFormat.clock(s.moving))   paused \(TextFormat.clock(s.paused))",
            "avg pace  \(TextFormat.pace(s.averagePace))",
            "fixes     \(s.fixesAccepted) accepted, \(s.fixesRejected) rejected (\(detail.fixCount) logged)",
            "heart     \(detail.beatCount) samples logged",
        ]
        for split in detail.splits {
            let heart = split.averageHeartRate.map { "   \(Int($0.rounded())) bpm" } ?? ""
            lines.append("split \(split.index)   \(TextFormat.clock(split.duration))\(heart)")
        }
        lines.append("events")
        for event in detail.events where event.kind != "split" {
            lines.append(
                "  \(event.time.map(SessionJSON.iso) ?? "-")  \(event.kind)  \(event.detailJSON == "{}" ? "" : event.detailJSON)"
            )
        }
        StandardOutput.line(lines.joined(separator: "\n"))
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
