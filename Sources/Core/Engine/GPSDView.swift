/// What gpsd last said about its receivers, kept to tell the wearer why there is no fix: gpsd
/// unreachable, no receiver attached, a receiver that sends nothing, or one still searching with the
/// satellites it sees. Pure: gpsd's news and the time in, a `NoFixReason` out.
struct GPSDView: Sendable {
    /// A receiver that gpsd lists but that has sent no report this long is called silent (s).
    static let silentAfter = 5.0

    /// Since when gpsd is connected; nil while it is not.
    private var connectedSince: Double?
    private var lastDisconnection: String?
    /// gpsd's refusal of something asked on this connection.
    private var refusal: String?
    /// The receivers gpsd lists; nil until it has said (its device list follows a WATCH).
    private var receivers: [String]?
    /// When a receiver last appeared (its silence is measured from then, or from the connection).
    private var receiverSince: Double?
    private var lastReportAt: Double?
    private var satellites: (seen: Int?, used: Int?)?

    mutating func connected(at now: Double) {
        connectedSince = now
        refusal = nil
        receivers = nil
        lastReportAt = nil
        satellites = nil
    }

    mutating func disconnected(reason: String) {
        connectedSince = nil
        lastDisconnection = reason
    }

    mutating func refused(_ message: String) { refusal = message }

    mutating func listed(_ paths: [String], at now: Double) {
        receivers = paths
        if !paths.isEmpty { receiverSince = now }
    }

    mutating func device(path: String, activated: Bool, at now: Double) {
        var list = receivers ?? []
        list.removeAll { $0 == path }
        if activated {
            list.append(path)
            receiverSince = now
        }
        receivers = list
    }

    mutating func report(at now: Double) { lastReportAt = now }

    mutating func sky(seen: Int?, used: Int?) { satellites = (seen, used) }

    /// Why there is no fix at `now`.
    func reason(now: Double) -> NoFixReason {
        guard let connectedSince else { return .gpsdUnreachable(lastDisconnection) }
        if receivers == [] { return .noReceiver }
        if let lastReportAt {
            guard now - lastReportAt >= Self.silentAfter else {
                return .searching(satellitesSeen: satellites?.seen, satellitesUsed: satellites?.used)
            }
            return .receiverSilent(path: receivers?.last)
        }
        if let refusal { return .gpsdError(refusal) }
        if now - max(connectedSince, receiverSince ?? connectedSince) >= Self.silentAfter {
            return .receiverSilent(path: receivers?.last)
        }
        return .waitingForGPSD
    }
}
