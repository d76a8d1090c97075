/// The wearer's body mass and the load they carry (a ruck, a vest, a child carrier), in kg: what
/// every energy model takes besides speed and grade.
public struct Carriage: Sendable, Equatable, Codable {
    /// What a wearer can weigh: outside it a value is a typo (grams, pounds typed as kg).
    public static let bodyMassRange = 25.0...250.0
    /// What a wearer can carry on foot; the load-carriage equations were fitted up to two thirds of
    /// body mass, and are extrapolated above it.
    public static let loadRange = 0.0...120.0

    public private(set) var bodyMass: Double
    public private(set) var load: Double

    /// Nil with the reason when either is outside its range or not a number.
    public static func checked(bodyMass: Double, load: Double = 0) -> Result<Carriage, CarriageError> {
        guard bodyMass.isFinite, bodyMassRange.contains(bodyMass) else { return .failure(.bodyMass(bodyMass)) }
        guard load.isFinite, loadRange.contains(load) else { return .failure(.load(load)) }
        return .success(Carriage(bodyMass: bodyMass, load: load))
    }

    private init(bodyMass: Double, load: Double) {
        self.bodyMass = bodyMass
        self.load = load
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let bodyMass = try container.decode(Double.self, forKey: .bodyMass)
        let load = try container.decode(Double.self, forKey: .load)
        switch Carriage.checked(bodyMass: bodyMass, load: load) {
        case .success(let carriage): self = carriage
        case .failure(let error):
            throw DecodingError.dataCorruptedError(forKey: .bodyMass, in: container, debugDescription: error.message)
        }
    }

    /// Body and load together: what the running equation moves.
    public var totalMass: Double { bodyMass + load }
    /// The load as a fraction of body mass.
    public var loadFraction: Double { load / bodyMass }

    enum CodingKeys: String, CodingKey {
        case bodyMass = "body_mass_kg"
        case load = "load_kg"
    }
}

/// Why a body mass or load was refused, in the words every edge (config, control socket, phone) uses.
public enum CarriageError: Error, Sendable, Equatable {
    case bodyMass(Double)
    case load(Double)

    public var message: String {
        switch self {
        case .bodyMass(let value):
            "body mass \(value) kg is outside \(Int(Carriage.bodyMassRange.lowerBound))-\(Int(Carriage.bodyMassRange.upperBound)) kg"
        case .load(let value):
            "load \(value) kg is outside \(Int(Carriage.loadRange.lowerBound))-\(Int(Carriage.loadRange.upperBound)) kg"
        }
    }
}

/// What a start command says of the wearer (the phone's body and ruck weights, `ctl start
/// --load`): either may be absent, and the configured value stands.
public struct CarriageOverride: Sendable, Equatable {
    public private(set) var bodyMass: Double?
    public private(set) var load: Double?

    public static let none = CarriageOverride(bodyMass: nil, load: nil)

    /// Each given value checked against its range.
    public static func checked(bodyMass: Double?, load: Double?) -> Result<CarriageOverride, CarriageError> {
        if let bodyMass, !(bodyMass.isFinite && Carriage.bodyMassRange.contains(bodyMass)) {
            return .failure(.bodyMass(bodyMass))
        }
        if let load, !(load.isFinite && Carriage.loadRange.contains(load)) { return .failure(.load(load)) }
        return .success(CarriageOverride(bodyMass: bodyMass, load: load))
    }

    private init(bodyMass: Double?, load: Double?) {
        self.bodyMass = bodyMass
        self.load = load
    }

    public var isEmpty: Bool { bodyMass == nil && load == nil }

    /// The carriage a session starts with: these values over the configured ones; nil while no
    /// body mass is known.
    public func applied(bodyMass configuredBody: Double?, load configuredLoad: Double) -> Carriage? {
        guard let body = bodyMass ?? configuredBody else { return nil }
        return try? Carriage.checked(bodyMass: body, load: load ?? configuredLoad).get()
    }
}
