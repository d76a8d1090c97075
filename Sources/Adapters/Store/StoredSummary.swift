import TrackCore

/// The parts of a summary that have no column of their own, as JSON in `session.summary`.
struct StoredSummary: Codable {
    var rejected: [String: Int]
    var autoPauses: Int
    var gpsLosses: Int
    var bridgedGaps: Int
    var maxSpeed: Double
    var trackPoints: Int
    var heartRate: HeartRateFigures?
    var elevation: ElevationFigures?
    var energy: EnergyFigures?
    /// Steps the IMU counted.
    var steps: Int?

    /// Energy spent, what costed most of it, and the body mass and load it was costed for.
    struct EnergyFigures: Codable {
        var kilocalories: Double
        var kilojoules: Double
        var model: String?
        var bodyMass: Double
        var load: Double

        enum CodingKeys: String, CodingKey {
            case kilocalories = "kcal"
            case kilojoules = "kj"
            case model
            case bodyMass = "body_mass_kg"
            case load = "load_kg"
        }
    }

    /// Climbed and descended, and where the altitude came from (gps or barometer).
    struct ElevationFigures: Codable {
        var source: String
        var gain: Double
        var loss: Double

        enum CodingKeys: String, CodingKey {
            case source
            case gain = "gain_m"
            case loss = "loss_m"
        }
    }

    /// Average, maximum and time in each zone (zone 0 below the first bound), from beats with contact.
    struct HeartRateFigures: Codable {
        var samples: Int
        var averageBPM: Double?
        var maximumBPM: Int?
        var timeInZone: [Double]

        enum CodingKeys: String, CodingKey {
            case samples
            case averageBPM = "average_bpm"
            case maximumBPM = "max_bpm"
            case timeInZone = "time_in_zone_s"
        }
    }

    init(_ summary: SessionSummary) {
        rejected = Dictionary(uniqueKeysWithValues: summary.rejected.map { ($0.key.rawValue, $0.value) })
        autoPauses = summary.autoPauses
        gpsLosses = summary.gpsLosses
        bridgedGaps = summary.bridgedGaps
        maxSpeed = summary.maxSpeed
        trackPoints = summary.trackPoints
        steps = summary.steps
        elevation = summary.elevation.map {
            ElevationFigures(
                source: $0.source.rawValue,
                gain: ($0.gain * 10).rounded() / 10,
                loss: ($0.loss * 10).rounded() / 10
            )
        }
        energy = summary.energy.map {
            EnergyFigures(
                kilocalories: ($0.kilocalories * 10).rounded() / 10,
                kilojoules: ($0.kilojoules * 10).rounded() / 10,
                model: $0.model?.rawValue,
                bodyMass: $0.carriage.bodyMass,
                load: $0.carriage.load
            )
        }
        heartRate = summary.heartRate.flatMap {
            $0.samples == 0
                ? nil
                : HeartRateFigures(
                    samples: $0.samples,
                    averageBPM: $0.average.map { ($0 * 10).rounded() / 10 },
                    maximumBPM: $0.maximum,
                    timeInZone: $0.timeInZone.map { ($0 * 10).rounded() / 10 }
                )
        }
    }

    enum CodingKeys: String, CodingKey {
        case rejected
        case autoPauses = "auto_pauses"
        case gpsLosses = "gps_losses"
        case bridgedGaps = "gaps_bridged"
        case maxSpeed = "max_speed_mps"
        case trackPoints = "track_points"
        case heartRate = "heart_rate"
        case elevation
        case energy
        case steps
    }
}
