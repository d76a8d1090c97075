/// One reading of a footpod, a treadmill or the wearable's own pedometer in SI units, whichever
/// profile it came in: what the session logs (every sample) and takes its indoor distance from.
public struct SpeedSample: Sendable, Equatable {
    /// Metres per second; nil when this notification did not carry it (a treadmill's split record).
    public var speed: Double?
    /// Steps per minute, as the footpod counts them; nil from a treadmill.
    public var cadence: Int?
    /// Metres, when the footpod measures it.
    public var strideLength: Double?
    /// The sensor's own cumulative distance (m) since it or its workout was reset: the count the
    /// session differences, so a dropped notification loses no distance.
    public var totalDistance: Double?
    /// Percent grade (treadmill).
    public var inclination: Double?
    /// The treadmill's own workout clock (s).
    public var elapsedTime: Int?
    /// The pedometer's steps since it began (its metres are `totalDistance`, uncalibrated).
    public var steps: Int?
    /// The pedometer's judgement that the wearer stands still.
    public var still: Bool?

    public init(
        speed: Double? = nil,
        cadence: Int? = nil,
        strideLength: Double? = nil,
        totalDistance: Double? = nil,
        inclination: Double? = nil,
        elapsedTime: Int? = nil,
        steps: Int? = nil,
        still: Bool? = nil
    ) {
        self.speed = speed
        self.cadence = cadence
        self.strideLength = strideLength
        self.totalDistance = totalDistance
        self.inclination = inclination
        self.elapsedTime = elapsedTime
        self.steps = steps
        self.still = still
    }

    public init(_ measurement: RSCMeasurement) {
        self.init(
            speed: measurement.speed,
            cadence: measurement.cadence,
            strideLength: measurement.strideLength,
            totalDistance: measurement.totalDistance
        )
    }

    public init(_ data: TreadmillData) {
        self.init(
            speed: data.speed.map { $0 / 3.6 },
            totalDistance: data.totalDistance.map(Double.init),
            inclination: data.inclination,
            elapsedTime: data.elapsedTime
        )
    }

    /// Nothing a session could use (a treadmill record with only energy or heart rate in it).
    public var isEmpty: Bool {
        speed == nil && cadence == nil && strideLength == nil && totalDistance == nil && inclination == nil
            && elapsedTime == nil && steps == nil && still == nil
    }
}
