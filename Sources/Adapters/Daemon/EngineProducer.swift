/// Something that feeds the engine: the gpsd link, the strap link, the clock, the control socket
/// (and the phone link later). Registered with the daemon, each on a task of its own.
protocol EngineProducer: Sendable {
    var name: String { get }
    var role: EngineProducerRole { get }
    /// Feeds `inbox` until the daemon shuts down: a source until its task is cancelled, a
    /// requester until it has closed its door and every answer it waits for has come.
    func run(into inbox: EngineInbox) async
}

/// How a producer ends at shutdown.
enum EngineProducerRole: Sendable {
    /// A sensor or the clock: cancelled at graceful shutdown; once every source has stopped, the
    /// engine writes its last batch and finishes.
    case source
    /// An edge that asks and waits for answers (the control socket, the phone link): it stops
    /// accepting at graceful shutdown but keeps waiting for the draining engine's answers, so it
    /// must not hold up the engine's shutdown.
    case requester
}
