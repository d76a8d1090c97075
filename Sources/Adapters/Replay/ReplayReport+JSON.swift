import Foundation
import TrackCore

extension ReplayReport {
    /// The `replay --json` object: one per file, keys in a stable order.
    public var jsonObject: [String: Any] {
        let s = summary
        var rejected: [String: Int] = [:]
        for (reason, count) in s.rejected { rejected[reason.rawValue] = count }
        var object: [String: Any] = [
            "file": file,
            "activity": s.activity.rawValue,
            "distance_m": Self.round(s.distance, 2),
            "elapsed_s": Self.round(s.elapsed, 2),
            "moving_s": Self.round(s.moving, 2),
            "paused_s": Self.round(s.paused, 2),
            "fixes": [
                "accepted": s.accepted, "rejected": rejected, "rejected_total": s.rejectedTotal,
                "merged_duplicates": mergedReports,
            ],
            "splits": s.splits.map {
                [
                    "index": $0.index, "distance_m": Self.round($0.distance, 2),
                    "elapsed_s": Self.round($0.duration, 2),
                    "end_elapsed_s": Self.round($0.endTimer, 2),
                ] as [String: Any]
            },
            "auto_pauses": s.autoPauses,
            "gps_lost": s.gpsLosses,
            "gaps_bridged": s.bridgedGaps,
            "max_speed_mps": Self.round(s.maxSpeed, 3),
            "track_points": s.trackPoints,
            "lines": lines,
            "malformed_lines": malformedLines,
            "receiver": [
                "ignored_fields": receiver.ignoredFieldNames,
                "position_noise_scale": Self.round(receiver.positionNoiseScale, 3),
                "doppler_noise_scale": Self.round(receiver.dopplerNoiseScale, 3),
            ] as [String: Any],
        ]
        if let pace = s.averagePace { object["avg_pace_s_per_km"] = Self.round(pace, 1) }
        if let elevation = s.elevation {
            object["elevation"] =
                [
                    "source": elevation.source.rawValue, "gain_m": Self.round(elevation.gain, 1),
                    "loss_m": Self.round(elevation.loss, 1),
                ] as [String: Any]
        }
        return object
    }

    public func jsonLine() -> String {
        let data = (try? JSONSerialization.data(withJSONObject: jsonObject, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    private static func round(_ value: Double, _ places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }
}
