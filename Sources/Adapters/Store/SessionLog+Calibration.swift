import GRDB
import StrideCalibration

/// One stored calibration stretch, for `wearbridge calibration`.
public struct StoredCalibration: Sendable, Equatable {
    public var footpod: String
    public var sessionID: String?
    /// gps (learnt outdoors) or fixed (a declared distance).
    public var kind: String
    /// UTC of the session it was learnt in (or when it was declared), when known.
    public var recordedAt: Double?
    public var stretch: CalibrationStretch
}

extension SessionLog {
    /// Every stretch of every footpod, oldest first.
    public func calibrations() throws -> [StoredCalibration] {
        try reader.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT footpod, session_id, kind, recorded_at, start, end, gps_m, footpod_m, speed, band
                    FROM calibration ORDER BY seq
                    """
            ).map { row in
                StoredCalibration(
                    footpod: row[0],
                    sessionID: row[1],
                    kind: row[2],
                    recordedAt: row[3],
                    stretch: CalibrationStretch(
                        start: row[4],
                        end: row[5],
                        gpsMetres: row[6],
                        footpodMetres: row[7],
                        speed: row[8],
                        band: row[9]
                    )
                )
            }
        }
    }

    /// The footpod's stretches, oldest first: what the daemon starts its calibration from. With no
    /// address (first-seen), the footpod calibrated last.
    public func calibrationStretches(footpod: String?) throws -> [CalibrationStretch] {
        let all = try calibrations()
        guard let footpod = footpod ?? all.last?.footpod else { return [] }
        return all.filter { $0.footpod == footpod }.map(\.stretch)
    }
}
