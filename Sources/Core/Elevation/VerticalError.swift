/// The 1-sigma vertical error a GPS altitude is taken at, judged rather than obeyed.
///
/// gpsd's `epv` is a 95 % estimate; on plain NMEA receivers it is VDOP times a guessed range
/// error, and some receivers report 0 or thousands of metres. The sigma is half of it, held within
/// what a consumer receiver's altitude can be (`floor`: even the best drift by metres over a
/// minute; `ceiling`: beyond it an altitude says nothing). Without `epv`, a receiver's vertical
/// error is about 1.5 times its horizontal one (VDOP against HDOP under an open sky).
public struct VerticalError: Sendable, Equatable {
    public var floor: Double
    public var ceiling: Double
    /// Taken when neither `epv` nor `eph` is given.
    public var unknown: Double

    public init(floor: Double = 3, ceiling: Double = 60, unknown: Double = 15) {
        self.floor = floor
        self.ceiling = ceiling
        self.unknown = unknown
    }

    /// The sigma for one fix, from its `epv` (95 %) or else its `eph` (95 %), in metres.
    public func sigma(epv: Double?, eph: Double?) -> Double {
        let raw: Double
        if let epv, epv.isFinite, epv > 0 {
            raw = epv / 2
        } else if let eph, eph.isFinite, eph > 0 {
            raw = 1.5 * eph / 2
        } else {
            raw = unknown
        }
        return min(ceiling, max(floor, raw))
    }
}
