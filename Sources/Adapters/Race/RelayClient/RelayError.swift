import PostgresNIO
import RelayContract

/// Everything that can go wrong with the relay, each saying what and where. A refusal is the
/// relay's own rule speaking (its SQLSTATE and message); the rest are ours or the network's.
public enum RelayError: Error, Equatable, CustomStringConvertible {
    case badURL(String, String)
    case credentials(String)
    /// The relay could not be reached or the connection broke (TLS, authentication, network).
    case unreachable(place: String, reason: String)
    /// The relay said no: `code` is its SQLSTATE (WBnnn for the relay's own rules, 42501 for a
    /// row-level security refusal).
    case refused(code: RelayCode, message: String)
    /// The relay is busy for now, not refusing: a lock held longer than the wait allows (55P03), a
    /// statement over its time (57014), a conflict to retry (40001, 40P01). Worth another try.
    case busy(code: RelayCode, message: String)
    case migrationChanged(version: Int, name: String)
    case newerSchema(applied: Int, known: Int)
    case notFound(String)

    public var description: String {
        switch self {
        case .badURL(let url, let reason): "bad relay URL \(url): \(reason)"
        case .credentials(let reason): reason
        case .unreachable(let place, let reason): "cannot reach the relay at \(place): \(reason)"
        case .refused(let code, let message): "the relay refused (\(code)): \(message)"
        case .busy(let code, let message): "the relay is busy, try again (\(code)): \(message)"
        case .migrationChanged(let version, let name):
            "migration \(version) (\(name)) was changed after the relay applied it; migrations are never edited, "
                + "add a new one"
        case .newerSchema(let applied, let known):
            "the relay's schema is at version \(applied), newer than this program knows (\(known)): upgrade it"
        case .notFound(let what): what
        }
    }

    static let busyStates: Set<RelayCode> = Set(["55P03", "57014", "40001", "40P01"].map(RelayCode.init(rawValue:)))

    /// The relay's refusal when `error` is one, the network's failure otherwise.
    static func from(_ error: any Error, place: String) -> RelayError {
        if let relay = error as? RelayError { return relay }
        if let psql = error as? PSQLError, let server = psql.serverInfo, let state = server[.sqlState] {
            let message = server[.message] ?? "no message"
            let code = RelayCode(rawValue: state)
            if busyStates.contains(code) { return .busy(code: code, message: message) }
            // Too many connections (53300), the server shutting down or ending the session (57P0x),
            // connection failures (08xxx): the connection is gone, as if the network had failed.
            if state.hasPrefix("53") || state.hasPrefix("57P") || state.hasPrefix("08") {
                return .unreachable(place: place, reason: "\(message) (\(state))")
            }
            return .refused(code: code, message: message)
        }
        if let psql = error as? PSQLError {
            return .unreachable(place: place, reason: "\(psql.code)\(psql.underlying.map { ": \($0)" } ?? "")")
        }
        return .unreachable(place: place, reason: "\(error)")
    }
}
