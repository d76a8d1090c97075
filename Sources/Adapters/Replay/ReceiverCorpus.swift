import Foundation

/// gpsd's regression suite as a robustness corpus (`benchmarks/gps-corpus/`): one JSON recording
/// per receiver, with the words its contributor wrote about it in `index.tsv`.
public struct ReceiverCorpus: Sendable {
    /// What a log's own description says about motion; the corpus gives no other truth.
    public enum Described: String, Sendable {
        case stationary
        case moving
        case unstated = "-"
    }

    public struct Log: Sendable {
        public var name: String
        public var path: String
        public var receiver: String
        public var description: String
        public var described: Described
    }

    public var logs: [Log]

    /// Reads `index.tsv` in `folder`; a log listed there but missing is kept (its replay fails).
    public init(folder: String) throws {
        let text = try String(contentsOfFile: "\(folder)/index.tsv", encoding: .utf8)
        logs = text.split(separator: "\n").dropFirst().compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 5, !columns[0].isEmpty else { return nil }
            let name = columns[0]
            return Log(
                name: name,
                path: "\(folder)/\(name).jsonl",
                receiver: columns[2],
                description: columns[4],
                described: Self.classify(name: name, words: columns[2...4].joined(separator: " "))
            )
        }
    }

    /// Stationary when the words say so: not moving or moved, roof or mast mounted, surveyed in,
    /// a fixed-position, timing or position-hold receiver, a GPS-disciplined oscillator.
    static func classify(name: String, words: String) -> Described {
        let text = "\(name) \(words)".lowercased()
        let still = [
            "stationary", "not moving", "not moved", "roof-mounted", "mast mounted", "surveyed", "fixed position",
            "time only", "timing", "pos-hold", "disciplined", "gpsdo",
        ]
        if still.contains(where: text.contains) { return .stationary }
        if ["moving", "climbing"].contains(where: text.contains) { return .moving }
        return .unstated
    }
}
