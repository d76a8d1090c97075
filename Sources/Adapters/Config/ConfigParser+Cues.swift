import Cues
import TOMLConfig
import TOMLKit

extension ConfigParser {
    static let cuesKeys = [
        "enabled", "language", "voice", "rate", "volume", "units", "output", "role", "alsa_device", "catalogs",
        "kinds", "summary_every", "summary_every_distance", "summary_figures", "target_zone", "quiet_while_paused",
        "dwell", "gps_reminder", "zone_min_interval",
    ]

    func parseCues(_ table: TOMLTable) throws -> CuesConfig {
        try fields.checkKeys(table, prefix: "cues.", allowed: Self.cuesKeys)
        var cues = CuesConfig()
        if let enabled = try fields.bool(table, "cues.enabled", "enabled") { cues.enabled = enabled }
        if let language = try fields.string(table, "cues.language", "language") {
            guard !language.isEmpty, language.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }) else {
                throw ConfigError.badValue(
                    path: path,
                    key: "cues.language",
                    value: fields.quoted(language),
                    allowed: "a language code such as \"en\" or \"de\" (a catalog of that name)"
                )
            }
            cues.language = language
        }
        cues.voice = try fields.string(table, "cues.voice", "voice")
        if let rate = try fields.integer(table, "cues.rate", "rate", in: 80...450, allowed: "80 to 450 words a minute")
        {
            cues.rate = rate
        }
        if let volume = try fields.integer(table, "cues.volume", "volume", in: 0...100, allowed: "0 to 100 (percent)") {
            cues.volume = volume
        }
        if let units = try fields.choice(table, "cues.units", "units", as: UnitSystem.self) { cues.units = units }
        if let output = try fields.choice(table, "cues.output", "output", as: CuesConfig.Output.self) {
            cues.output = output
        }
        if let role = try fields.string(table, "cues.role", "role") { cues.role = role }
        if let device = try fields.string(table, "cues.alsa_device", "alsa_device") { cues.alsaDevice = device }
        cues.catalogs = try fields.absolutePath(
            table,
            "cues.catalogs",
            "catalogs",
            allowed: "an absolute path to a directory of LANGUAGE.toml catalogs"
        )
        try parseRules(table, into: &cues)
        return cues
    }

    private func parseRules(_ table: TOMLTable, into cues: inout CuesConfig) throws {
        if let kinds = try fields.choices(table, "cues.kinds", "kinds", as: CueGroup.self) {
            cues.rules.groups = Set(kinds).union([.say])
        }
        if let every = try fields.duration(table, "cues.summary_every", "summary_every", in: 0...(24 * 3600)) {
            guard every == 0 || every >= 30 else {
                throw ConfigError.badValue(
                    path: path,
                    key: "cues.summary_every",
                    value: "\(every)",
                    allowed: "0 (off) or 30 s to 24 h"
                )
            }
            cues.rules.summaryEvery = every > 0 ? every : nil
        }
        if let every = try fields.number(table, "cues.summary_every_distance", "summary_every_distance", in: 0...1000) {
            cues.rules.summaryEveryDistance = every > 0 ? every * cues.units.unitLength : nil
        }
        if let figures = try fields.choices(
            table,
            "cues.summary_figures",
            "summary_figures",
            as: CueSettings.Figure.self
        ) {
            cues.rules.summaryFigures = figures
        }
        if cues.rules.summaryEvery != nil || cues.rules.summaryEveryDistance != nil {
            cues.rules.groups.insert(.summary)
        }
        cues.rules.targetZone = try fields.integer(
            table,
            "cues.target_zone",
            "target_zone",
            in: 1...5,
            allowed: "1 to 5"
        )
        if let quiet = try fields.bool(table, "cues.quiet_while_paused", "quiet_while_paused") {
            cues.rules.quietWhilePaused = quiet
        }
        if let dwell = try fields.duration(table, "cues.dwell", "dwell", in: 0...120) { cues.rules.dwell = dwell }
        if let reminder = try fields.duration(table, "cues.gps_reminder", "gps_reminder", in: 30...3600) {
            cues.rules.gpsReminder = reminder
        }
        if let interval = try fields.duration(table, "cues.zone_min_interval", "zone_min_interval", in: 10...3600) {
            cues.rules.zoneMinInterval = interval
        }
    }
}
