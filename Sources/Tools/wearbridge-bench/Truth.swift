import ArgumentParser
import Foundation
import TrackCore

/// A recording with what is known about it (`NAME.truth.json` beside `NAME.jsonl`).
struct Truth {
    var name: String
    var recording: String
    var activity: Activity
    /// Ground distance; nil when the recording only tests robustness.
    var distance: Double?
    var tolerance: Double?
    var moving: Double?

    static func sessions(in folder: String) throws -> [Truth] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasSuffix(".truth.json") }.sorted()
        return try names.map { file in
            let data = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(file)"))
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw ValidationError("\(folder)/\(file): not a JSON object")
            }
            let name = String(file.dropLast(".truth.json".count))
            return Truth(
                name: name,
                recording: "\(folder)/\(name).jsonl",
                activity: Activity(rawValue: object["activity"] as? String ?? "") ?? .walking,
                distance: object["distance_m"] as? Double,
                tolerance: object["tolerance_m"] as? Double,
                moving: object["moving_s"] as? Double
            )
        }
    }
}
