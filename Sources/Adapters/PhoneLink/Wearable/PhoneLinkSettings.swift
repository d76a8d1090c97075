import CertificateFingerprint
import Identity

/// What the wearable's link needs: where the phone is, whom to trust, who we are.
public struct PhoneLinkSettings: Sendable {
    public var host: String
    public var port: Int
    public var name: String
    public var identity: NodeIdentity
    public var phoneFingerprint: Fingerprint
    /// No traffic for this long is a stale link (s).
    public var staleAfter: Double
    /// With nothing else to send for this long, the newest snapshot again: the phone sees a live link.
    public var heartbeatEvery: Double
    /// HTTP/2 keepalive ping interval (s); the phone must permit pings without calls.
    public var keepaliveEvery: Double
    /// A connection attempt not welcomed by the phone within this long is abandoned and retried (s).
    public var welcomeWithin: Double

    public init(
        host: String,
        port: Int,
        name: String,
        identity: NodeIdentity,
        phoneFingerprint: Fingerprint,
        staleAfter: Double = 5,
        heartbeatEvery: Double = 2,
        keepaliveEvery: Double = 10,
        welcomeWithin: Double = 10
    ) {
        self.host = host
        self.port = port
        self.name = name
        self.identity = identity
        self.phoneFingerprint = phoneFingerprint
        self.staleAfter = staleAfter
        self.heartbeatEvery = heartbeatEvery
        self.keepaliveEvery = keepaliveEvery
        self.welcomeWithin = welcomeWithin
    }
}
