import ArgumentParser
import SyntheticReceivers

/// One draw of a synthetic route written as a recording of `data/gps` (`RouteRecording`).
struct RecordRoute: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record-route",
        abstract: "Write one draw of a synthetic route as NAME.jsonl, NAME.nmea and NAME.truth.json."
    )

    @Option(help: "The route, as the draws table names it (\"city, two lights\").")
    var route: String

    @Option(help: "The draw.")
    var seed: UInt64 = 1

    @Option(help: "The recording's name.")
    var name: String

    @Option(help: "The folder it goes in.")
    var out = "data/gps"

    func run() throws {
        guard let chosen = HonestRoute.named(route) else {
            throw ValidationError("no route named \(route); the routes: \(HonestRoute.all.map(\.name))")
        }
        let recording = try RouteRecording(route: chosen, seed: seed, name: name)
        try recording.write(to: out)
        StandardOutput.line(
            "\(out)/\(name): \(recording.truth["epochs"] ?? 0) fixes, \(recording.truth["distance_m"] ?? 0) m"
        )
    }
}
