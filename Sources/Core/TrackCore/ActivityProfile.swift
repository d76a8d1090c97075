/// Every threshold of the distance core for one activity, in one place.
///
/// The values come from the physics of the activity and of consumer receivers, not from any
/// recording: speeds a person can reach, accelerations they make, errors receivers report.
public struct ActivityProfile: Sendable, Equatable {
    // MARK: Gate

    /// Doppler or implied speed above which a fix is impossible (m/s).
    public var maxSpeed: Double
    /// The error gate never rejects a fix whose horizontal error is at or below this (m).
    public var errorFloor: Double
    /// The error gate always rejects a fix whose horizontal error is above this (m).
    public var errorCeiling: Double
    /// A fix is rejected when its error exceeds this multiple of the receiver's typical error.
    /// Adapting to the receiver is what lets DOP-derived `eph` (15-25 m on good fixes) through.
    public var errorBaselineMultiple: Double
    /// Extra tolerance for the error gate while the receiver warms up.
    public var warmUpErrorFactor: Double
    /// How many accepted fixes the warm-up lasts.
    public var warmUpFixes: Int
    /// A fix that arrives this much later than the session's best GPS-to-receive offset is stale (s).
    public var staleAfter: Double

    // MARK: Kalman filter

    /// White-acceleration spectral density of the constant-velocity model (m^2/s^3).
    public var processNoise: Double
    /// Position noise (1 sigma, m) assumed when a fix carries no error estimate.
    public var defaultPositionSigma: Double
    /// Doppler velocity noise (1 sigma, m/s) assumed when a fix carries no `eps`.
    public var defaultVelocitySigma: Double
    /// Squared Mahalanobis distance (2 dof) above which a position or Doppler is an outlier;
    /// 13.8 is the 99.9% point of chi-square with two degrees of freedom.
    public var outlierThreshold: Double
    /// Persistent outliers for this long mean the filter, not the receiver, is wrong: reset (s).
    public var outlierResetAfter: Double
    /// A position and its Doppler that both fail `outlierThreshold` in one epoch mean a turn or a
    /// brake sharper than `processNoise` allows, not two bad measurements: the prediction gets the
    /// extra acceleration noise that brings the Doppler's squared Mahalanobis distance to this, and
    /// both are used if both then pass. 9.2 leaves a third of the 99.9% gate (13.8) to spare.
    public var manoeuvreGate: Double

    // MARK: Judging the receiver

    /// How the receiver's own error fields and Doppler are judged: a property of consumer
    /// receivers, not of the activity, so every preset shares one `ReceiverJudging.consumer`.
    public var receiver: ReceiverJudging

    // MARK: Standing still

    /// Mean speed below which the wearer is standing still (m/s).
    public var stillSpeed: Double
    /// Time constant of the mean speed used for stillness (s).
    public var stillWindow: Double
    /// Speed that, sustained for `moveDwell`, ends standing still (m/s).
    public var moveSpeed: Double
    /// How long `moveSpeed` must be sustained (s).
    public var moveDwell: Double
    /// Distance from the standing point that ends standing still whatever the speed (m).
    public var moveRadius: Double

    // MARK: Auto-pause

    /// Speed below which the timer pauses after `pauseDwell` (m/s).
    public var pauseSpeed: Double
    public var pauseDwell: Double
    /// Speed above which a paused timer resumes after `resumeDwell`; above `pauseSpeed` for hysteresis.
    public var resumeSpeed: Double
    public var resumeDwell: Double

    // MARK: Gaps

    /// A silence longer than this between usable fixes is a gap, bridged rather than filtered (s).
    public var gapThreshold: Double
    /// No usable fix for this long is a "GPS lost" event (s).
    public var gpsLostAfter: Double
    /// A gap longer than this is bridged by the straight line only (s).
    public var longGap: Double
    /// A bridged gap is never credited more than this multiple of the straight line.
    public var maxDetourFactor: Double

    // MARK: Time line

    /// Consecutive self-consistent fixes that overrule the current time line when they disagree with it.
    public var timelineResetAfter: Int
    /// A forward jump longer than this cannot be real time passing (s).
    public var maxForwardJump: Double

    // MARK: Outputs

    /// Split length (m): 1000 for km splits, 1609.344 for miles.
    public var splitLength: Double
    /// Ramer-Douglas-Peucker tolerance for the stored track (m).
    public var trackTolerance: Double

    public static let running = ActivityProfile(
        maxSpeed: 12.5,
        errorFloor: 12,
        errorCeiling: 60,
        errorBaselineMultiple: 2.0,
        warmUpErrorFactor: 1.5,
        warmUpFixes: 15,
        staleAfter: 2.0,
        processNoise: 0.8,
        defaultPositionSigma: 5,
        defaultVelocitySigma: 0.3,
        outlierThreshold: 13.8,
        outlierResetAfter: 10,
        manoeuvreGate: 9.2,
        receiver: .consumer,
        stillSpeed: 0.5,
        stillWindow: 4,
        moveSpeed: 0.9,
        moveDwell: 3,
        moveRadius: 8,
        pauseSpeed: 1.0,
        pauseDwell: 4,
        resumeSpeed: 1.4,
        resumeDwell: 2,
        gapThreshold: 3,
        gpsLostAfter: 5,
        longGap: 120,
        maxDetourFactor: 1.5,
        timelineResetAfter: 5,
        maxForwardJump: 12 * 3600,
        splitLength: 1000,
        trackTolerance: 2
    )

    public static let walking = ActivityProfile(
        maxSpeed: 6,
        errorFloor: 12,
        errorCeiling: 60,
        errorBaselineMultiple: 2.0,
        warmUpErrorFactor: 1.5,
        warmUpFixes: 15,
        staleAfter: 2.0,
        processNoise: 0.3,
        defaultPositionSigma: 5,
        defaultVelocitySigma: 0.3,
        outlierThreshold: 13.8,
        outlierResetAfter: 10,
        manoeuvreGate: 9.2,
        receiver: .consumer,
        stillSpeed: 0.4,
        stillWindow: 5,
        moveSpeed: 0.6,
        moveDwell: 3,
        moveRadius: 8,
        pauseSpeed: 0.4,
        pauseDwell: 6,
        resumeSpeed: 0.7,
        resumeDwell: 2,
        gapThreshold: 3,
        gpsLostAfter: 5,
        longGap: 120,
        maxDetourFactor: 1.5,
        timelineResetAfter: 5,
        maxForwardJump: 12 * 3600,
        splitLength: 1000,
        trackTolerance: 2
    )

    public static let cycling = ActivityProfile(
        maxSpeed: 25,
        errorFloor: 12,
        errorCeiling: 60,
        errorBaselineMultiple: 2.0,
        warmUpErrorFactor: 1.5,
        warmUpFixes: 15,
        staleAfter: 2.0,
        processNoise: 2.0,
        defaultPositionSigma: 5,
        defaultVelocitySigma: 0.3,
        outlierThreshold: 13.8,
        outlierResetAfter: 10,
        manoeuvreGate: 9.2,
        receiver: .consumer,
        stillSpeed: 0.6,
        stillWindow: 3,
        moveSpeed: 1.2,
        moveDwell: 2,
        moveRadius: 10,
        pauseSpeed: 2.0,
        pauseDwell: 3,
        resumeSpeed: 2.6,
        resumeDwell: 2,
        gapThreshold: 3,
        gpsLostAfter: 5,
        longGap: 120,
        maxDetourFactor: 1.5,
        timelineResetAfter: 5,
        maxForwardJump: 12 * 3600,
        splitLength: 1000,
        trackTolerance: 3
    )
}
