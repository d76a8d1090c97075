import DashboardCore
import Hummingbird
import Logging
import NIOCore

/// Every request passes here: loopback peers come in; others need the pairing secret (the
/// `wb_pair` cookie or `Authorization: Bearer`). A POST from a page of another origin is refused.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = DashboardContext
    let policy: AccessPolicy
    let pairing: PairingFile
    let logger: Logger

    func handle(
        _ request: Request,
        context: DashboardContext,
        next: (Request, DashboardContext) async throws -> Response
    ) async throws -> Response {
        let peer = context.remoteAddress?.ipAddress
        let isPairing = request.uri.path == "/api/pair" || request.uri.path == "/pair"
        if !isPairing, !(peer.map(AccessPolicy.isLoopback) ?? false) {
            let secret = Self.secret(request)
            let matches = try secret.map { PairingFile.matches($0, digests: try pairing.digests()) } ?? false
            if case .refuse(let reason) = policy.admit(peer: peer, secretMatches: matches) {
                logger.warning(
                    "refused a dashboard request without the pairing secret",
                    metadata: ["peer": "\(peer ?? "?")", "path": "\(request.uri.path)"]
                )
                return JSONText.error(.unauthorized, "pairing_required", reason)
            }
        }
        if request.method == .post, let origin = request.headers[.origin], let host = request.head.authority {
            // The browser names the page that sent a POST: only our own pages may command a wearable.
            guard origin.hasSuffix("://" + host) else {
                return JSONText.error(.forbidden, "cross_origin", "a command must come from this dashboard's own page")
            }
        }
        return try await next(request, context)
    }

    /// The secret a request carries: the pairing cookie, else a bearer token.
    static func secret(_ request: Request) -> String? {
        if let cookie = request.cookies["wb_pair"]?.value, !cookie.isEmpty { return cookie }
        if let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer ") {
            return String(authorization.dropFirst(7))
        }
        return nil
    }
}
