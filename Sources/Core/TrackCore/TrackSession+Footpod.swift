/// Outdoors, the footpod's count on the session's clock, calibrated: what it says of a stretch
/// the GPS could not see.
struct FootpodTrail: Sendable {
    var factors: StrideFactors
    /// (instant, calibrated cumulative metres) of recent readings, oldest first.
    var readings: [(time: GPSTime, metres: Double)] = []
    var lastTotal: Double?
    var metres = 0.0
    /// Readings kept: a gap longer than this many seconds falls back to the GPS's own bridging.
    static let kept = 900

    /// The calibrated count at an instant between two readings, by linear interpolation.
    func metres(at time: GPSTime) -> Double? {
        guard let first = readings.first, let last = readings.last,
            time.seconds >= first.time.seconds - 1.5, time.seconds <= last.time.seconds + 1.5
        else { return nil }
        guard let after = readings.firstIndex(where: { $0.time.seconds >= time.seconds }) else { return last.metres }
        guard after > 0 else { return readings[0].metres }
        let (a, b) = (readings[after - 1], readings[after])
        let span = b.time.seconds - a.time.seconds
        guard span > 0 else { return b.metres }
        return a.metres + (b.metres - a.metres) * (time.seconds - a.time.seconds) / span
    }
}

extension TrackSession {
    /// Outdoors with a footpod beside the GPS: its readings carry the distance while no fix is used
    /// (a tunnel, a canyon, a receiver judged unusable), so that the gap is not a straight chord and
    /// the figure does not stand still and then jump. `factors`: its calibration; called again as
    /// the session learns it, the new factors apply from the next reading on.
    public mutating func useFootpod(_ factors: StrideFactors) {
        guard indoor == nil else { return }
        if footpod == nil { footpod = FootpodTrail(factors: factors) } else { footpod?.factors = factors }
    }

    /// An outdoor footpod reading, on the session's (GPS) clock.
    mutating func footpodReading(_ reading: StrideReading) -> [TrackEvent] {
        guard var trail = footpod, let total = reading.totalDistance else { return [] }
        defer { footpod = trail }
        let factor = trail.factors.factor(forSpeed: reading.speed ?? 0)
        var step = 0.0
        if let previous = trail.lastTotal, total >= previous { step = (total - previous) * factor }
        trail.lastTotal = total
        trail.metres += step
        trail.readings.append((reading.time, trail.metres))
        if trail.readings.count > FootpodTrail.kept {
            trail.readings.removeFirst(trail.readings.count - FootpodTrail.kept)
        }
        // A gap under way (no fix used for longer than a gap is), running, not paused by hand: the
        // footpod's metres count now; the bridge at the next fix settles the rest.
        guard let lastUsable, case .none = manualPause, !autoPause.isPaused,
            reading.time.since(lastUsable) > profile.gapThreshold, step <= profile.maxSpeed * 1.5
        else { return [] }
        distance += step
        gapCarried += step
        return []
    }

    /// The footpod's path over a gap, when it counted it and what it says is possible: at least the
    /// chord less the positions' uncertainty (a runner goes no shorter than the straight line).
    func footpodPath(from: GPSTime, to: GPSTime, chord: Double, allowance: Double) -> Double? {
        guard let trail = footpod, let start = trail.metres(at: from), let end = trail.metres(at: to) else {
            return nil
        }
        let path = end - start
        guard path >= chord - allowance, path <= profile.maxSpeed * to.since(from) else { return nil }
        return max(path, chord - allowance, 0)
    }
}
