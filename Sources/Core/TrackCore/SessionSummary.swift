import Elevation
import Energy

/// The figures of a session at one moment: what replay prints and what the daemon will store.
public struct SessionSummary: Sendable, Equatable {
    public struct HeartRate: Sendable, Equatable {
        public var samples: Int
        public var invalid: Int
        public var average: Double?
        public var maximum: Int?
        /// Seconds in zone 0 (below the first bound) through zone n.
        public var timeInZone: [Double]
    }

    /// Altitude and climbing: nil while no fix has carried an altitude.
    public struct ElevationFigures: Sendable, Equatable {
        public var source: ElevationSource
        /// Filtered, metres above mean sea level.
        public var altitude: Double
        public var gain: Double
        public var loss: Double
        /// Rise over run of the last metres travelled, nil until they are.
        public var grade: Double?
    }

    /// Energy spent, with what costed it: nil without the wearer's body mass, or for a ride.
    public struct EnergyFigures: Sendable, Equatable {
        public var joules: Double
        /// The model that costed most of it; nil before any moving time.
        public var model: EnergyModel?
        public var carriage: Carriage

        public var kilocalories: Double { joules / EnergyModel.joulesPerKilocalorie }
        public var kilojoules: Double { joules / 1000 }
    }

    public var activity: Activity
    /// gps outdoors; footpod or treadmill indoors.
    public var distanceSource: DistanceSource
    public var distance: Double
    public var elapsed: Double
    public var moving: Double
    public var paused: Double
    public var accepted: Int
    public var rejected: [RejectReason: Int]
    public var splits: [Split]
    public var autoPauses: Int
    public var gpsLosses: Int
    public var bridgedGaps: Int
    public var maxSpeed: Double
    public var trackPoints: Int
    public var heartRate: HeartRate?
    public var elevation: ElevationFigures?
    public var energy: EnergyFigures?
    /// Steps the wearable's accelerometer counted; nil without one.
    public var steps: Int?

    init(_ session: TrackSession) {
        activity = session.activity
        distanceSource = session.distanceSource
        distance = session.distance
        elapsed = session.elapsed
        paused = session.pausedTime
        moving = session.movingTime
        accepted = session.acceptedCount
        rejected = session.rejected
        splits = session.splits
        autoPauses = session.autoPauseCount
        gpsLosses = session.gpsLossCount
        bridgedGaps = session.bridgedGapCount
        maxSpeed = session.maxSpeed
        steps = session.stepCount
        trackPoints = session.storedTrackPointCount
        let track = session.elevation
        elevation = track.altitude.map {
            ElevationFigures(source: track.source, altitude: $0, gain: track.gain, loss: track.loss, grade: track.grade)
        }
        energy = session.energy.flatMap { meter in
            meter.applies ? EnergyFigures(joules: meter.joules, model: meter.mainModel, carriage: meter.carriage) : nil
        }
        heartRate = session.heartRate.map {
            HeartRate(
                samples: $0.sampleCount,
                invalid: $0.invalidCount,
                average: $0.average,
                maximum: $0.maximum,
                timeInZone: $0.timeInZone
            )
        }
    }

    public var rejectedTotal: Int { rejected.values.reduce(0, +) }

    /// Average pace over moving time, seconds per kilometre; nil before any distance.
    public var averagePace: Double? {
        distance > 1 ? moving / distance * 1000 : nil
    }
}
