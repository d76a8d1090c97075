import ArgumentParser
import Store
import StrideCalibration

/// `wearbridge calibration`: each footpod's learnt factor, how sure it is, per pace band where the
/// stride changes with pace, and the stretches it was learnt from.
struct CalibrationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibration",
        abstract: "Show each footpod's calibration: its factor, confidence, pace bands and history.",
        discussion: """
            Learnt outdoors from straight, steady stretches the track core judged good; applied to the \\
            footpod's distance indoors. A factor of 0.935 means the footpod reads 7 % long.
            """
    )

    @Flag(help: "One JSON object per footpod.")
    var json = false

    @Option(help: "Stretches of the history to show (newest last).")
    var history = 10

    @OptionGroup var storage: StorageOptions

    func run() throws {
        let log = try storage.open()
        let stored: [StoredCalibration]
        do {
            stored = try log.calibrations()
        } catch {
            StandardError.line("wearbridge: cannot read \(log.path): \(error)")
            throw ExitCode(65)
        }
        var footpods: [String] = []
        for entry in stored where !footpods.contains(entry.footpod) { footpods.append(entry.footpod) }
        if footpods.isEmpty && !json { StandardOutput.line("no footpod calibrated yet") }
        for footpod in footpods {
            let own = stored.filter { $0.footpod == footpod }
            let report = CalibrationJSON(footpod: footpod, stored: own, history: max(0, history))
            StandardOutput.line(json ? try JSONLine.encode(report) : report.text)
        }
    }
}

/// One footpod's calibration, as JSON or text.
private struct CalibrationJSON: Encodable {
    struct Band: Encodable {
        var band: Int
        /// m/s; nil for the open ends.
        var from_mps: Double?
        var below_mps: Double?
        var stretches: Int
        var own_factor: Double?
        /// What an indoor session applies at this pace: the band's own factor or the overall one.
        var applied_factor: Double?
    }

    struct Stretch: Encodable {
        /// gps (learnt outdoors) or fixed (a declared distance).
        var kind: String
        var session_id: String?
        var recorded_at: Double?
        var gps_m: Double
        var footpod_m: Double
        var ratio: Double
        var speed_mps: Double
        var band: Int
    }

    var footpod: String
    var factor: Double?
    var standard_error: Double?
    var stretches: Int
    var metres: Double
    var bands: [Band]
    var history: [Stretch]

    init(footpod: String, stored: [StoredCalibration], history count: Int) {
        self.footpod = footpod
        let calibrator = StrideCalibrator(stretches: stored.map(\.stretch))
        let overall = calibrator.overall
        factor = overall?.factor
        standard_error = overall.flatMap { $0.standardError.isFinite ? $0.standardError : nil }
        stretches = stored.count
        metres = overall?.metres ?? 0
        let edges = calibrator.settings.bandEdges
        bands = (0...edges.count).map { band in
            let own = stored.map(\.stretch).filter { $0.band == band }
            let from: Double? = band == 0 ? nil : edges[band - 1]
            let below: Double? = band == edges.count ? nil : edges[band]
            return Band(
                band: band,
                from_mps: from,
                below_mps: below,
                stretches: own.count,
                own_factor: CalibrationFactor(of: own)?.factor,
                applied_factor: calibrator.factor(forSpeed: calibrator.settings.speed(inBand: band))?.factor
            )
        }
        self.history = stored.suffix(count).map {
            Stretch(
                kind: $0.kind,
                session_id: $0.sessionID,
                recorded_at: $0.recordedAt,
                gps_m: $0.stretch.gpsMetres,
                footpod_m: $0.stretch.footpodMetres,
                ratio: $0.stretch.ratio,
                speed_mps: $0.stretch.speed,
                band: $0.stretch.band
            )
        }
    }

    var text: String {
        var lines = ["footpod \(footpod)"]
        if let factor {
            let reads = (1 / factor - 1) * 100
            var line =
                "factor    \(TextFormat.format(factor, 4))  (the footpod reads \(TextFormat.format(abs(reads), 1)) % "
            line += reads >= 0 ? "long)" : "short)"
            if let error = standard_error { line += ", ±\(TextFormat.format(error, 4))" }
            lines.append(line)
        }
        lines.append("learnt    from \(stretches) stretches, \(TextFormat.format(metres / 1000, 2)) km")
        for band in bands {
            let range =
                "\(band.from_mps.map { TextFormat.format($0, 1) } ?? "")-\(band.below_mps.map { TextFormat.format($0, 1) } ?? "") m/s"
            let own = band.own_factor.map { "own \(TextFormat.format($0, 4))" } ?? "no stretch"
            let applied = band.applied_factor.map { TextFormat.format($0, 4) } ?? "-"
            lines.append(
                "band \(band.band)    \(range.padding(12))  \(band.stretches) stretches, \(own), applied \(applied)"
            )
        }
        for stretch in history {
            lines.append(
                "  \(stretch.kind.padding(5))  \(stretch.session_id.map { String($0.prefix(8)) } ?? "-       ")"
                    + "  \(stretch.kind == "fixed" ? "run" : "gps") \(TextFormat.format(stretch.gps_m, 1)) m"
                    + "  footpod \(TextFormat.format(stretch.footpod_m, 1)) m  ratio \(TextFormat.format(stretch.ratio, 4))"
                    + "  at \(TextFormat.format(stretch.speed_mps, 2)) m/s"
            )
        }
        return lines.joined(separator: "\n")
    }
}
