import ArgumentParser
import Export
import Foundation
import PhoneServer

/// `wearbridge-phone export SESSION`: the phone's backfilled copy of a session through the same
/// exporters as `wearbridge export`, replaying the same inputs: the same file.
struct PhoneExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a backfilled session as GPX, TCX, FIT or CSV (as `wearbridge export` does).",
        discussion: """
            The session must be backfilled completely (`wearbridge-phone show SESSION`). Exit \
            status: 0; 1 on a write error; 65 when the session is not (completely) backfilled or has \
            no accepted fix (indoors: no reading); 66 when the phone has never heard of it.
            """
    )

    @OptionGroup var options: PhoneConfigOptions
    @Argument(help: "The session id (as the wearable named it).") var session: String
    @Option(help: "gpx, tcx, fit or csv.") var format: ExportFormat = .gpx
    @Option(name: [.customShort("o"), .long], help: "Output file, or - for standard output.") var output: String
    @Flag(help: "CSV: one row per beat with its RR intervals.") var beats = false
    @Flag(help: "smoothed track (default) or the receiver's raw positions.") var raw = false
    @Flag(help: "Replace an existing file.") var force = false

    func run() throws {
        let inbox = try options.inbox()
        guard let start = try inbox.sessions.start(session) else {
            Output.error("wearbridge-phone: no session \(session) in the inbox")
            throw ExitCode(66)
        }
        guard try inbox.backfill.state(session: session)?.state == .complete else {
            Output.error(
                "wearbridge-phone: session \(session) is not completely backfilled (wearbridge-phone backfill)"
            )
            throw ExitCode(65)
        }
        do {
            let file = try OutputFile(target: output == "-" ? nil : output)
            let summary = try ExportRun.write(
                format,
                ExportSession(
                    id: session,
                    activity: start.activity,
                    startedAt: start.startedAt,
                    smoothed: !raw,
                    distanceSource: start.distanceSource,
                    footpodFactors: start.footpodFactors,
                    course: start.course
                ),
                journal: { body in try inbox.sessions.journal(session: session, body) },
                into: file,
                beats: beats
            )
            try file.commit(overwrite: force)
            if output != "-" {
                Output.line(
                    "wrote \(output) (\(format.rawValue), \(String(format: "%.2f", summary.distance / 1000)) km)"
                )
            }
        } catch let error as ExportError {
            Output.error("wearbridge-phone: \(error)")
            if case .noPoints = error { throw ExitCode(65) }
            throw ExitCode(1)
        }
    }
}

extension ExportFormat: ExpressibleByArgument {}
