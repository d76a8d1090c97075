import Energy

/// What a session costs its energy by: the wearer's body mass and load, and the walking model.
public struct EnergySettings: Sendable, Equatable {
    public var carriage: Carriage
    public var walking: WalkingModel

    public init(carriage: Carriage, walking: WalkingModel = .lcda) {
        self.carriage = carriage
        self.walking = walking
    }
}
