import Bluetooth

/// A footpod's or treadmill's samples and events into the engine.
struct SpeedSensorProducer: EngineProducer {
    let role = EngineProducerRole.source
    let link: SpeedSensorLink
    var name: String { link.kind.rawValue }

    func run(into inbox: EngineInbox) async {
        await link.run { inbox.send(.speedSensor($0)) }
    }
}
