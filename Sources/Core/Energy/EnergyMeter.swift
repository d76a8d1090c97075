/// Energy spent over a session: each stretch of moving time costed by its model at the stretch's
/// mean speed and the grade under it. Paused time costs nothing; standing within moving time costs
/// what standing with the load costs.
public struct EnergyMeter: Sendable, Equatable {
    /// Steeper than this the equations were not fitted: the grade is held at it.
    public static let gradeLimit = 0.30

    public let carriage: Carriage
    public let choice: ModelChoice
    public let activity: EnergyActivity
    /// Joules by model, for the figures' sources.
    public private(set) var joulesByModel: [EnergyModel: Double] = [:]
    public var joules: Double { joulesByModel.values.reduce(0, +) }

    public init(carriage: Carriage, activity: EnergyActivity, choice: ModelChoice = ModelChoice()) {
        self.carriage = carriage
        self.activity = activity
        self.choice = choice
    }

    /// Whether any model costs this activity.
    public var applies: Bool { activity != .cycling }

    /// `seconds` of moving time over which `metres` were covered, on a `grade` (rise over run;
    /// nil is level).
    public mutating func add(seconds: Double, metres: Double, grade: Double?) {
        guard seconds > 0, seconds.isFinite, metres.isFinite else { return }
        let speed = max(0, metres) / seconds
        guard let model = choice.model(for: activity, speed: speed) else { return }
        let slope = min(Self.gradeLimit, max(-Self.gradeLimit, grade ?? 0))
        let watts = max(0, model.power(speed: speed, grade: slope.isFinite ? slope : 0, carriage: carriage))
        joulesByModel[model, default: 0] += watts * seconds
    }

    public var kilocalories: Double { joules / EnergyModel.joulesPerKilocalorie }

    /// The model that costed most of the energy; nil before any.
    public var mainModel: EnergyModel? {
        joulesByModel.max { $0.value < $1.value || ($0.value == $1.value && $0.key.rawValue > $1.key.rawValue) }?.key
    }
}
