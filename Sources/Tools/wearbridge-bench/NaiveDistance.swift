import Foundation
import GPSD
import TrackCore

/// The baseline a phone app starts from: a haversine sum over every fix with a position.
enum NaiveDistance {
    static let earthRadius = 6_371_008.8

    static func haversine(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        let deg = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * deg
        let dLon = (b.longitude - a.longitude) * deg
        let h =
            sin(dLat / 2) * sin(dLat / 2)
            + cos(a.latitude * deg) * cos(b.latitude * deg) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }

    static func haversineSum(path: String) throws -> Double {
        haversineSum(try RecordedFixes.load(path: path, merge: false))
    }

    /// Every fix with a plausible position (mode 2 or 3), in order.
    static func haversineSum(_ fixes: [Fix]) -> Double {
        var total = 0.0
        var last: GeoPoint?
        for fix in fixes where fix.mode >= 2 {
            guard let p = fix.position, p.isPlausible else { continue }
            if let last { total += haversine(last, p) }
            last = p
        }
        return total
    }
}

/// The fixes of a recording, decoded up front so that timing measures the core alone.
enum RecordedFixes {
    static func load(path: String, merge: Bool) throws -> [Fix] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let decoder = GPSDDecoder()
        var merger = EpochMerger()
        var fixes: [Fix] = []
        for line in text.split(separator: "\n") {
            guard case .tpv(let tpv) = try? decoder.decode(Array(line.utf8)) else { continue }
            if merge { merger.add(tpv.fix()) { fixes.append($0) } } else { fixes.append(tpv.fix()) }
        }
        if let last = merger.flush() { fixes.append(last) }
        return fixes
    }
}
