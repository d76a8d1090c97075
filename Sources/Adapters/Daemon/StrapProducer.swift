import Bluetooth

/// The strap link's beats and events into the engine.
struct StrapProducer: EngineProducer {
    let role = EngineProducerRole.source
    let name = "strap"
    let link: StrapLink

    func run(into inbox: EngineInbox) async {
        await link.run { inbox.send(.strap($0)) }
    }
}
