import ArgumentParser
import Config
import Daemon
import GPSD
import GPSDLink
import Logging
import SessionCore
import Store
import TrackCore

/// `wearbridge gps`: live fixes as the core judges them; the field tester's first tool.
struct GPSCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gps",
        abstract: "Print live fixes from gpsd with the core's verdict (accepted, or rejected and why).",
        discussion: "Runs its own session in memory; it does not need the daemon and records nothing. Ctrl-C stops."
    )

    @Flag(help: "One JSON object per fix (as replay --trace).")
    var json = false

    @Option(help: "gpsd host (default: the configuration's).")
    var host: String?

    @Option(help: "gpsd port.")
    var port: Int?

    @Option(help: "gpsd Unix socket instead of TCP.")
    var socket: String?

    @Option(help: "running, walking or cycling (default: the configuration's).")
    var activity: Activity?

    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        let config = try configOptions.loadOrExit()
        let logger = logging.bootstrap(label: "wearbridge.gps", default: .warning)
        var endpoint = config.gpsd.link
        if let socket {
            endpoint = .unix(path: socket)
        } else if host != nil || port != nil {
            if case .tcp(let configuredHost, let configuredPort) = endpoint {
                endpoint = .tcp(host: host ?? configuredHost, port: port ?? configuredPort)
            } else {
                endpoint = .tcp(host: host ?? "127.0.0.1", port: port ?? 2947)
            }
        }
        let (events, sink) = AsyncStream.makeStream(of: GPSDLinkEvent.self)
        let connection = GPSDConnection(endpoint: endpoint, logger: logger)
        var session = TrackSession(activity: activity ?? config.activity)
        var merger = LiveEpochMerger()
        let json = self.json
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await connection.run { sink.yield($0) }
                sink.finish()
            }
            for await event in events {
                switch event {
                case .connected(let name): if !json { StandardOutput.line("connected to gpsd at \(name)") }
                case .disconnected(let reason): if !json { StandardOutput.line("gpsd: \(reason)") }
                case .malformed(let reason, let line):
                    logger.warning("malformed gpsd line", metadata: ["line": "\(line)", "error": "\(reason)"])
                case .message(.tpv(let tpv), let receivedAt):
                    // The next report completes the previous epoch; good enough for a live view.
                    for fix in merger.add(tpv.fix(receivedAt: receivedAt), now: receivedAt) {
                        let outcome = session.ingest(fix)
                        if json {
                            FixTrace.print(fix, outcome, session)
                        } else {
                            StandardOutput.line(Self.line(fix, outcome, session))
                        }
                    }
                    StandardOutput.flush()
                case .message: break
                }
            }
        }
    }

    static func line(_ fix: Fix, _ outcome: FixOutcome, _ session: TrackSession) -> String {
        let time = fix.time.map { SessionJSON.iso($0.seconds) } ?? "no time"
        let position =
            fix.position.map { "\(TextFormat.format($0.latitude, 6)),\(TextFormat.format($0.longitude, 6))" } ?? "-"
        let error = fix.gatingError.map { "±\(TextFormat.format($0, 1)) m" } ?? "±? m"
        let verdict: String
        switch outcome.verdict {
        case .accepted: verdict = "accepted"
        case .rejected(let reason): verdict = "REJECTED \(reason.rawValue)"
        }
        let speed = fix.speed.map { "\(TextFormat.format($0, 2)) m/s" } ?? "- m/s"
        var text =
            "\(time)  mode \(fix.mode)  \(position)  \(error)  \(speed)  \(verdict)  total \(TextFormat.format(session.distance, 1)) m"
        for event in outcome.events { text += "  [\(SessionEvent.track(event).storedKind)]" }
        return text
    }
}
