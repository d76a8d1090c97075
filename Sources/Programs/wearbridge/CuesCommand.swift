import ArgumentParser
import Config
import CueLanguages
import Cues
import Foundation
import Logging
import Replay
import SessionCore
import Store
import TrackCore

/// `wearbridge cues FILE|SESSION`: the cues a gpsd recording or a logged session earns, from the
/// same rules and queue the daemon runs, with speaking simulated: the same timeline every run.
struct CuesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cues",
        abstract: "Print the timeline of cues a gpsd recording or a logged session would produce.",
        discussion: """
            FILE is gpsd JSON (as `gpspipe -w` writes it): its fixes start a session at the first \
            good one and end it at the last. SESSION is an id (or unique prefix) in the data log: \
            its logged fixes, beats and commands are run again. [cues] of the configuration \
            applies (language, units, kinds, periodic summaries, zones); --language, --units and \
            --summary-every override it. Each line: time from the start, the cue, its text, and \
            `dropped (reason)` for one never spoken. Speaking time is estimated from the words \
            at [cues] rate.
            """
    )

    @OptionGroup var storage: StorageOptions

    @Option(help: "running, walking or cycling (a FILE's session).")
    var activity: Activity?

    @Option(help: "Catalog language (default: [cues] language).")
    var language: String?

    @Option(help: "metric or imperial (default: [cues] units).")
    var units: String?

    @Option(help: "A periodic summary every this many seconds of moving time.")
    var summaryEvery: Double?

    @Flag(help: "One JSON object per cue.")
    var json = false

    @OptionGroup var logging: LoggingOptions

    @Argument(help: "A gpsd JSON recording, or a session id or prefix.")
    var source: String

    func run() throws {
        let logger = logging.bootstrap(label: "wearbridge.cues", default: .warning)
        var config = try storage.configOptions.loadOrExit()
        if let language { config.cues.language = language }
        if let units {
            guard let system = UnitSystem(rawValue: units) else { throw ValidationError("--units: metric or imperial") }
            config.cues.units = system
        }
        if let summaryEvery {
            config.cues.rules.summaryEvery = summaryEvery > 0 ? summaryEvery : nil
            config.cues.rules.groups.insert(.summary)
        }
        if let activity { config.activity = activity }
        let catalog: CueCatalog
        do {
            catalog = try CueCatalogs(directory: config.cues.catalogs).catalog(config.cues.language)
        } catch {
            StandardError.line("wearbridge: \(error)")
            throw ExitCode(78)
        }
        var settings = config.cueSettings
        // Recordings carry beats only with a strap: zones whenever beats are there.
        settings.zones = settings.zones ?? config.controller.heartRateZones
        let timeline = CueTimeline(
            settings: settings,
            catalog: catalog,
            units: config.cues.units,
            rate: config.cues.rate
        )
        let inputs = try self.inputs(config: config, logger: logger)
        for entry in timeline.run(inputs, configuration: config.controller) {
            StandardOutput.line(json ? Self.json(entry) : Self.text(entry))
        }
    }

    /// A FILE's fixes (times from GPS), or a logged session's journal.
    private func inputs(config: WearbridgeConfig, logger: Logger) throws -> [SessionController.JournalEntry] {
        if FileManager.default.fileExists(atPath: source) {
            do {
                return try FileReplayer(activity: config.activity, logger: logger).timedFixes(path: source).map {
                    .fix($0)
                }
            } catch {
                StandardError.line("wearbridge: cannot read \(error.file): \(error.reason)")
                throw ExitCode(66)
            }
        }
        let log = try storage.open()
        do {
            let detail = try log.detail(matching: source)
            return try log.journal(of: detail.session.id).entries
        } catch {
            StandardError.line("wearbridge: \(error)")
            throw ExitCode(error is StoreError ? 65 : 1)
        }
    }

    static func text(_ entry: CueTimeline.Entry) -> String {
        let clock = TextFormat.clock(entry.at)
        let outcome = entry.dropped.map { "  dropped (\($0.rawValue))" } ?? ""
        return
            "\(clock)  \(entry.kind.rawValue.padding(toLength: 15, withPad: " ", startingAt: 0)) \(entry.text)\(outcome)"
    }

    static func json(_ entry: CueTimeline.Entry) -> String {
        struct Line: Encodable {
            var at_s: Double
            var cue: String
            var text: String
            var spoken: Bool
            var dropped: String?
            var delay_s: Double
        }
        let line = Line(
            at_s: (entry.at * 1000).rounded() / 1000,
            cue: entry.kind.rawValue,
            text: entry.text,
            spoken: entry.dropped == nil,
            dropped: entry.dropped?.rawValue,
            delay_s: (entry.delay * 1000).rounded() / 1000
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(line), as: UTF8.self)) ?? "{}"
    }
}
