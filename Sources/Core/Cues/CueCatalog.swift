import Course
import SessionCore

/// The words of one language: a text per cue and per figure, unit words with their plural, and
/// how numbers are written for the synthesizer. Loaded from a catalog file (the built-in
/// `Sources/Adapters/CueLanguages/catalogs/*.toml`, or one in `[cues] catalogs`), so a language is added
/// without code; a catalog missing a key is refused, naming the key.
public struct CueCatalog: Sendable, Equatable {
    /// Every text a catalog must have: `{name}` marks a value filled in.
    public static let requiredTexts = [
        "session_started", "session_ended", "totals", "average_pace", "average_heart_rate", "climbed", "energy",
        "steps",
        "paused", "resumed", "auto_paused", "auto_resumed",
        "split", "split_pace", "split_heart_rate",
        "summary_distance_in", "summary_distance", "summary_elapsed", "summary_average_pace", "summary_current_pace",
        "summary_heart_rate", "summary_average_heart_rate", "summary_cadence",
        "zone_entered", "zone_above", "zone_below", "zone_in",
        "gps_lost", "gps_still_lost", "gps_regained",
        "strap_lost", "strap_regained", "contact_lost", "battery_low",
        "link_lost", "link_back",
        "countdown_in", "countdown_number", "go", "race_cancelled", "lead_taken", "lead_lost",
        "partner_paused", "partner_resumed", "partner_split", "partner_finished", "partner_abandoned",
        "partner_lost", "partner_back", "summary_gap_ahead", "summary_gap_behind",
        "summary_gap_ahead_time", "summary_gap_behind_time",
        "pace", "pace_even", "per_kilometre", "per_mile",
        "course_following", "off_course", "back_on_course", "turn_ahead", "turn_left", "turn_right",
        "turn_sharp_left", "turn_sharp_right", "turn_u", "course_finished",
    ]
    /// Unit words, each as [singular, plural].
    public static let requiredWords = ["metre", "kilometre", "mile", "foot", "hour", "minute", "second"]

    public let language: String
    /// The espeak-ng voice for this language, unless `[cues] voice` says otherwise.
    public let voice: String
    public let decimalSeparator: String
    /// Between the parts of one cue, and at its end.
    public let separator: String
    public let ending: String
    private let words: [String: [String]]
    private let texts: [String: String]

    public init(
        language: String,
        voice: String,
        decimalSeparator: String = ".",
        separator: String = ", ",
        ending: String = ".",
        words: [String: [String]],
        texts: [String: String]
    ) throws(CatalogError) {
        for key in Self.requiredTexts where texts[key] == nil {
            throw .missing(language: language, key: "texts.\(key)")
        }
        for key in Self.requiredWords where words[key]?.count != 2 {
            throw .missing(language: language, key: "words.\(key) (as [singular, plural])")
        }
        let known = Set(Self.requiredTexts)
        if let unknown = texts.keys.sorted().first(where: { !known.contains($0) }) {
            throw .unknown(language: language, key: "texts.\(unknown)")
        }
        self.language = language
        self.voice = voice
        self.decimalSeparator = decimalSeparator
        self.separator = separator
        self.ending = ending
        self.words = words
        self.texts = texts
    }

    /// The words for `message`, in `units`.
    public func text(_ message: CueMessage, units: UnitSystem) -> String {
        let say = Phrasing(catalog: self, units: units)
        let parts: [String]
        switch message {
        case .sessionStarted: parts = [fill("session_started")]
        case .sessionEnded(let distance, let moving, let pace, let heartRate, let climbed, let energy, let steps):
            var said = [fill("session_ended")]
            if distance > 0 {
                said.append(fill("totals", ["distance": say.distance(distance), "time": say.duration(moving)]))
            }
            if let pace { said.append(fill("average_pace", ["pace": say.pace(pace)])) }
            if let heartRate {
                said.append(fill("average_heart_rate", ["heart_rate": say.number(heartRate, decimals: 0)]))
            }
            if let climbed, climbed >= 1 { said.append(fill("climbed", ["height": say.height(climbed)])) }
            if let energy, energy >= 1 {
                said.append(fill("energy", ["kilocalories": say.number(energy, decimals: 0)]))
            }
            if let steps, steps > 0 { said.append(fill("steps", ["steps": say.number(Double(steps), decimals: 0)])) }
            parts = said
        case .paused: parts = [fill("paused")]
        case .resumed: parts = [fill("resumed")]
        case .autoPaused: parts = [fill("auto_paused")]
        case .autoResumed: parts = [fill("auto_resumed")]
        case .split(let index, let duration, let pace, let heartRate):
            parts =
                [
                    fill("split", ["index": String(index), "time": say.duration(duration)]),
                    fill("split_pace", ["pace": say.pace(pace)]),
                ] + (heartRate.map { [fill("split_heart_rate", ["heart_rate": say.number($0, decimals: 0)])] } ?? [])
        case .summary(let figures):
            parts = figures.map { summary($0, say) }
        case .zone(.entered(let zone)): parts = [fill("zone_entered", ["zone": String(zone)])]
        case .zone(.above(let target)): parts = [fill("zone_above", ["zone": String(target)])]
        case .zone(.below(let target)): parts = [fill("zone_below", ["zone": String(target)])]
        case .zone(.inTarget(let target)): parts = [fill("zone_in", ["zone": String(target)])]
        case .gpsLost(let again): parts = [fill(again ? "gps_still_lost" : "gps_lost")]
        case .gpsRegained: parts = [fill("gps_regained")]
        case .strapLost: parts = [fill("strap_lost")]
        case .strapRegained: parts = [fill("strap_regained")]
        case .contactLost: parts = [fill("contact_lost")]
        case .batteryLow(let percent): parts = [fill("battery_low", ["percent": String(percent)])]
        case .linkLost: parts = [fill("link_lost")]
        case .linkBack: parts = [fill("link_back")]
        case .countdown(0): parts = [fill("go")]
        case .countdown(let seconds) where seconds > 5:
            parts = [fill("countdown_in", ["time": say.duration(Double(seconds))])]
        case .countdown(let seconds): parts = [fill("countdown_number", ["seconds": String(seconds)])]
        case .raceCancelled: parts = [fill("race_cancelled")]
        case .raceLead(let partner, let gap):
            parts = [fill(gap >= 0 ? "lead_taken" : "lead_lost", ["partner": partner, "distance": say.gap(gap)])]
        case .partner(let cue): parts = [partner(cue, say)]
        case .course(let event): parts = [course(event, say)]
        case .say(let text): return text
        }
        return parts.joined(separator: separator) + ending
    }

    private func course(_ event: CourseEvent, _ say: Phrasing) -> String {
        switch event {
        case .following(let name, let length):
            fill("course_following", ["course": name, "distance": say.distance(length)])
        case .offCourse(let away): fill("off_course", ["distance": say.distance(away)])
        case .backOnCourse: fill("back_on_course")
        case .turnAhead(let direction, let metres):
            fill("turn_ahead", ["distance": say.distance(metres), "turn": fill(Self.turnText(direction))])
        case .finished(let name): fill("course_finished", ["course": name])
        }
    }

    static func turnText(_ direction: TurnDirection) -> String {
        switch direction {
        case .left: "turn_left"
        case .right: "turn_right"
        case .sharpLeft: "turn_sharp_left"
        case .sharpRight: "turn_sharp_right"
        case .uTurn: "turn_u"
        }
    }

    private func summary(_ figure: SummaryFigure, _ say: Phrasing) -> String {
        switch figure {
        case .distanceIn(let distance, let elapsed):
            fill("summary_distance_in", ["distance": say.distance(distance), "time": say.duration(elapsed)])
        case .distance(let distance): fill("summary_distance", ["distance": say.distance(distance)])
        case .elapsed(let elapsed): fill("summary_elapsed", ["time": say.duration(elapsed)])
        case .averagePace(let pace): fill("summary_average_pace", ["pace": say.pace(pace)])
        case .currentPace(let pace): fill("summary_current_pace", ["pace": say.pace(pace)])
        case .heartRate(let bpm): fill("summary_heart_rate", ["heart_rate": String(bpm)])
        case .averageHeartRate(let bpm):
            fill("summary_average_heart_rate", ["heart_rate": say.number(bpm, decimals: 0)])
        case .cadence(let steps): fill("summary_cadence", ["cadence": String(steps)])
        case .gap(let partner, let metres, let seconds?) where abs(seconds) >= 1:
            fill(
                metres >= 0 ? "summary_gap_ahead_time" : "summary_gap_behind_time",
                ["partner": partner, "distance": say.gap(metres), "time": say.duration(abs(seconds))]
            )
        case .gap(let partner, let metres, _):
            fill(
                metres >= 0 ? "summary_gap_ahead" : "summary_gap_behind",
                ["partner": partner, "distance": say.gap(metres)]
            )
        }
    }

    private func partner(_ cue: PartnerCue, _ say: Phrasing) -> String {
        switch cue {
        case .paused(let name): fill("partner_paused", ["partner": name])
        case .resumed(let name): fill("partner_resumed", ["partner": name])
        case .split(let name, let index, let seconds):
            fill("partner_split", ["partner": name, "index": String(index), "time": say.duration(seconds)])
        case .finished(let name, let elapsed):
            fill("partner_finished", ["partner": name, "time": say.duration(elapsed)])
        case .abandoned(let name): fill("partner_abandoned", ["partner": name])
        case .lost(let name): fill("partner_lost", ["partner": name])
        case .back(let name): fill("partner_back", ["partner": name])
        }
    }

    /// A text with its `{name}` marks filled.
    func fill(_ key: String, _ values: [String: String] = [:]) -> String {
        var text = texts[key] ?? key
        for (name, value) in values { text = text.replacing("{\(name)}", with: value) }
        return text
    }

    /// The singular or plural of a unit word.
    func word(_ key: String, count: Double) -> String {
        let forms = words[key] ?? [key, key]
        return count == 1 ? forms[0] : forms[1]
    }
}

/// A catalog that cannot be used, naming the key.
public enum CatalogError: Error, Equatable, CustomStringConvertible {
    case missing(language: String, key: String)
    case unknown(language: String, key: String)

    public var description: String {
        switch self {
        case .missing(let language, let key): "cue catalog \"\(language)\" lacks \(key)"
        case .unknown(let language, let key): "cue catalog \"\(language)\" has an unknown key \(key)"
        }
    }
}
