import Foundation
import TrackCore

/// One draw of a route as a recording of `data/gps`: the JSON gpsd emits for it (`NAME.jsonl`, what
/// the benchmark and the tests replay), the NMEA a plain receiver sends (`NAME.nmea`, for gpsfake
/// and a real gpsd) and its truth (`NAME.truth.json`, with the route and the draw that made it).
public struct RouteRecording {
    /// 2025-06-14T07:00:00Z: dated as the other recordings are (gpsd reads the two-digit NMEA year
    /// of `HonestReceiver.start`, 2005, as 2025).
    public static let firstEpoch = 1_749_884_400.0

    public let name: String
    /// The draw's fixes as the recording gives them back (`FixText.printed`), dated from `firstEpoch`.
    public let fixes: [Fix]
    public let jsonl: String
    public let nmea: String
    public let truth: [String: Any]

    public enum Failure: Error, CustomStringConvertible {
        case tooShort(String)
        public var description: String {
            switch self {
            case .tooShort(let route): "\(route) drew fewer than two fixes with a time"
            }
        }
    }

    public init(route: HonestRoute, seed: UInt64, name: String) throws {
        var draw = route.make(seed)
        guard draw.fixes.count > 1, let start = draw.fixes[0].time else { throw Failure.tooShort(route.name) }
        let shift = Self.firstEpoch - start.seconds
        for index in draw.fixes.indices {
            draw.fixes[index].time = draw.fixes[index].time?.adding(shift)
            draw.fixes[index] = FixText.printed(draw.fixes[index])
        }
        guard let first = draw.fixes.first?.time, let second = draw.fixes[1].time, let last = draw.fixes.last?.time
        else { throw Failure.tooShort(route.name) }
        let rate = 1 / second.since(first)
        let duration = last.since(first) + 1 / rate
        let header = [
            #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#,
            #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM0","driver":"NMEA0183","#
                + #""native":0,"bps":9600,"parity":"N","stopbits":1,"cycle":\#(1 / rate)}]}"#,
            #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"#
                + #""timing":false,"split24":false,"pps":false}"#,
        ]
        self.name = name
        fixes = draw.fixes
        jsonl = (header + draw.fixes.map(FixText.tpv)).joined(separator: "\n") + "\n"
        nmea = draw.fixes.flatMap(FixText.sentences).joined(separator: "\r\n") + "\r\n"
        truth = [
            "name": name,
            "activity": route.activity.rawValue,
            "distance_m": (draw.truth * 1000).rounded() / 1000,
            "moving_s": draw.moving,
            "stopped_s": duration - draw.moving,
            "duration_s": duration,
            "epochs": draw.fixes.count,
            "rate_hz": rate,
            "route": route.name,
            "seed": seed,
        ]
    }

    /// Writes the three files into `folder`.
    public func write(to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try jsonl.write(toFile: "\(folder)/\(name).jsonl", atomically: true, encoding: .utf8)
        try nmea.write(toFile: "\(folder)/\(name).nmea", atomically: true, encoding: .utf8)
        let data = try JSONSerialization.data(withJSONObject: truth, options: [.prettyPrinted, .sortedKeys])
        try (data + Data("\n".utf8)).write(to: URL(fileURLWithPath: "\(folder)/\(name).truth.json"))
    }
}
