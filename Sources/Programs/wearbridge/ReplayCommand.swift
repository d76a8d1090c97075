import ArgumentParser
import Logging
import Replay
import TrackCore

/// `wearbridge replay`: runs recorded gpsd JSON through exactly the code the daemon runs live.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay gpsd JSON (as `gpspipe -w` writes it) through the distance core.",
        discussion: """
            Prints a summary per file. Malformed lines are reported on stderr with their line \
            number and counted; the replay goes on. A file that cannot be read is an error and \
            the exit status is non-zero, after the other files have been replayed.
            """
    )

    @Option(help: "running, walking or cycling.")
    var activity: Activity = .running

    @Flag(help: "One JSON object per file on stdout.")
    var json = false

    @Flag(help: "Print every fix with the core's verdict, as JSON lines, before the summary.")
    var trace = false

    @OptionGroup var logging: LoggingOptions

    @Argument(help: "Recordings of gpsd JSON.")
    var files: [String]

    func run() throws {
        let logger = logging.bootstrap(label: "wearbridge.replay")
        let replayer = FileReplayer(activity: activity, logger: logger)
        var failed = 0
        let observer: ((Fix, FixOutcome, TrackSession) -> Void)? =
            trace ? { fix, outcome, session in FixTrace.print(fix, outcome, session) } : nil
        for file in files {
            do {
                let report = try replayer.replay(path: file, observer: observer)
                StandardOutput.line(json ? report.jsonLine() : ReplaySummaryText(report: report).text)
            } catch {
                logger.error("cannot replay", metadata: ["file": "\(error.file)", "error": "\(error.reason)"])
                failed += 1
            }
        }
        if failed > 0 { throw ExitCode(1) }
    }
}

extension Activity: ExpressibleByArgument {}
