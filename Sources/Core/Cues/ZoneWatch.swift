import TrackCore

/// Heart-rate zone changes worth saying: a zone counts as entered only `hysteresis` beats past
/// its boundary, must hold for `hold` seconds, and is spoken at most once per `minInterval`.
struct ZoneWatch: Sendable, Equatable {
    let zones: HeartRateZones
    let hysteresis: Double
    let hold: Double
    let minInterval: Double
    let target: Int?
    private var zone: Int?
    private var since = 0.0
    /// What was last said (the zone, or its side of the target), and when.
    private var spoken: Int?
    private var spokenAt: Double?

    init(settings: CueSettings, zones: HeartRateZones) {
        self.zones = zones
        hysteresis = settings.zoneHysteresis
        hold = settings.zoneHold
        minInterval = settings.zoneMinInterval
        target = settings.targetZone
    }

    /// Takes the current heart rate; the zone cue due now, if any.
    mutating func update(bpm: Int, at now: Double) -> ZoneCue? {
        let beats = Double(bpm)
        guard let current = zone else {
            // The first zone of a session is the baseline: warming up is not news.
            zone = zones.zone(for: beats)
            since = now
            spoken = zone.map(said)
            return nil
        }
        let raw = zones.zone(for: beats)
        var next = current
        if raw > current {
            next = max(current, zones.zone(for: beats - hysteresis))
        } else if raw < current {
            next = min(current, zones.zone(for: beats + hysteresis))
        }
        if next != current {
            zone = next
            since = now
        }
        guard let zone, said(zone) != spoken, now - since >= hold,
            spokenAt.map({ now - $0 >= minInterval }) ?? true
        else { return nil }
        spoken = said(zone)
        spokenAt = now
        guard let target else { return .entered(zone) }
        if zone > target { return .above(target: target) }
        if zone < target { return .below(target: target) }
        return .inTarget(target)
    }

    /// What a cue says about `zone`: the zone itself, or with a target only its side of it.
    private func said(_ zone: Int) -> Int {
        guard let target else { return zone }
        return zone > target ? 1 : (zone < target ? -1 : 0)
    }
}
