import TrackCore

/// A route of `HonestReceiver`'s by the name the draws table and the recordings give it.
public struct HonestRoute: Sendable {
    public let name: String
    public let activity: Activity
    public let make: @Sendable (UInt64) -> HonestReceiver.Draw

    public init(name: String, activity: Activity, make: @escaping @Sendable (UInt64) -> HonestReceiver.Draw) {
        self.name = name
        self.activity = activity
        self.make = make
    }

    public static let all = [
        HonestRoute(name: "tempo, 10 Hz", activity: .running) { HonestReceiver.tempo(rate: 10, seed: $0) },
        HonestRoute(name: "tempo, 10 Hz, exact course", activity: .running) {
            HonestReceiver.tempo(rate: 10, noise: .tenHertzExactCourse, seed: $0)
        },
        HonestRoute(name: "tempo, 10 Hz, vector", activity: .running) {
            HonestReceiver.tempo(rate: 10, noise: .tenHertzVector, seed: $0)
        },
        HonestRoute(name: "tempo, 1 Hz", activity: .running) { HonestReceiver.tempo(rate: 1, seed: $0) },
        HonestRoute(name: "track laps, 1 Hz", activity: .running) { HonestReceiver.trackLaps(seed: $0) },
        HonestRoute(name: "an hour, 1 Hz", activity: .running) {
            HonestReceiver.tempo(rate: 1, seconds: 3600, seed: $0)
        },
        HonestRoute(name: "track, standing start", activity: .running) {
            HonestReceiver.trackStandingStart(seed: $0)
        },
        HonestRoute(name: "city, two lights", activity: .running) { HonestReceiver.cityLights(seed: $0) },
        HonestRoute(name: "walk, four stops", activity: .walking) { HonestReceiver.walkWithStops(seed: $0) },
    ]

    public static func named(_ name: String) -> HonestRoute? { all.first { $0.name == name } }
}
