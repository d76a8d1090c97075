import Energy

/// What a session costs its energy by: the wearer's body mass and load, and the walking model.
public struct EnergySettings: Sendable, Equatable, Codable {
    public var carriage: Carriage
    public var walking: WalkingModel

    public init(carriage: Carriage, walking: WalkingModel = .lcda) {
        self.carriage = carriage
        self.walking = walking
    }

    /// One flat object: `{"body_mass_kg": 80, "load_kg": 20, "walking_model": "lcda"}`.
    public init(from decoder: any Decoder) throws {
        carriage = try Carriage(from: decoder)
        walking = try decoder.container(keyedBy: CodingKeys.self).decode(WalkingModel.self, forKey: .walking)
    }

    public func encode(to encoder: any Encoder) throws {
        try carriage.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(walking, forKey: .walking)
    }

    enum CodingKeys: String, CodingKey {
        case walking = "walking_model"
    }
}
