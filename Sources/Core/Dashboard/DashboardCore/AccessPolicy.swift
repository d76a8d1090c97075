/// Who may use the dashboard. On loopback (the default) only this machine's users can reach it.
/// Beyond loopback it must speak TLS with the phone's own identity and every request from another
/// host must carry the pairing secret (cookie or bearer token); start-up refuses otherwise.
public struct AccessPolicy: Sendable, Equatable {
    /// True when the server listens on loopback only.
    public let loopbackOnly: Bool

    public init(loopbackOnly: Bool) { self.loopbackOnly = loopbackOnly }

    /// The listen address, whether TLS is on, and whether a pairing secret exists.
    public static func check(listen: String, tls: Bool, paired: Bool) -> Result<AccessPolicy, StartupRefusal> {
        if isLoopback(listen) { return .success(AccessPolicy(loopbackOnly: true)) }
        guard tls else { return .failure(.needsTLS(listen)) }
        guard paired else { return .failure(.needsPairing(listen)) }
        return .success(AccessPolicy(loopbackOnly: false))
    }

    public enum Decision: Sendable, Equatable {
        case admit
        case refuse(String)
    }

    /// A request from `peer` (its address text), with or without the secret.
    public func admit(peer: String?, secretMatches: Bool) -> Decision {
        if let peer, Self.isLoopback(peer) { return .admit }
        if secretMatches { return .admit }
        return .refuse(
            "this dashboard needs its pairing secret: run `wearbridge-phone dashboard pair` on the phone and open "
                + "the address it prints"
        )
    }

    /// 127.0.0.0/8, ::1 (also as ::ffff:127.x.y.z) and "localhost".
    public static func isLoopback(_ address: String) -> Bool {
        var text = address
        if text.hasPrefix("[") && text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if text == "localhost" || text == "::1" { return true }
        if text.hasPrefix("::ffff:") { text = String(text.dropFirst(7)) }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else { return false }
        return parts[0] == "127"
    }
}

/// Why the dashboard will not start: the message names the key to change.
public enum StartupRefusal: Error, Equatable, CustomStringConvertible {
    case needsTLS(String)
    case needsPairing(String)

    public var description: String {
        switch self {
        case .needsTLS(let listen):
            "[dashboard] listen = \"\(listen)\" is beyond loopback: set tls = true (the phone's own identity "
                + "certificate) or listen on 127.0.0.1"
        case .needsPairing(let listen):
            "[dashboard] listen = \"\(listen)\" is beyond loopback: make a pairing secret first with "
                + "`wearbridge-phone dashboard pair`"
        }
    }
}
