import CertificateFingerprint
import Foundation
import Logging
import NIOCore
import NIOSSL
import Synchronization

/// The TLS peer check both programs use: the peer's leaf certificate must be one of the pinned
/// fingerprints and within its validity; nothing else is accepted. Every refusal is logged with
/// the presented fingerprint and why, and counted.
public final class PeerPinning: Sendable {
    /// Pinned fingerprints and the name each is known by.
    public let trusted: [Fingerprint: String]
    private let logger: Logger
    private let refusals = Atomic<Int>(0)

    public init(trusted: [Fingerprint: String], logger: Logger) {
        self.trusted = trusted
        self.logger = logger
    }

    public var refused: Int { refusals.load(ordering: .relaxed) }

    /// The verdict on a presented chain at `now` (Unix seconds): the peer's name, or why not.
    public func judge(_ certificates: [NIOSSLCertificate], now: Double) -> Result<String, PinningRefusal> {
        guard let leaf = certificates.first else { return .failure(PinningRefusal(fingerprint: nil, "no certificate")) }
        guard let der = try? leaf.toDERBytes() else {
            return .failure(PinningRefusal(fingerprint: nil, "the certificate cannot be encoded"))
        }
        let fingerprint = Fingerprint(der: der)
        guard let name = trusted[fingerprint] else {
            return .failure(PinningRefusal(fingerprint: fingerprint, "not a pinned certificate"))
        }
        if Double(leaf.notValidAfter) < now {
            return .failure(PinningRefusal(fingerprint: fingerprint, "expired at \(date(leaf.notValidAfter))"))
        }
        if Double(leaf.notValidBefore) > now {
            return .failure(
                PinningRefusal(
                    fingerprint: fingerprint,
                    "not valid before \(date(leaf.notValidBefore)) (is this clock right?)"
                )
            )
        }
        return .success(name)
    }

    /// NIOSSL's custom verification callback.
    public func verify(
        _ certificates: [NIOSSLCertificate],
        _ promise: EventLoopPromise<NIOSSLVerificationResultWithMetadata>
    ) {
        switch judge(certificates, now: Date().timeIntervalSince1970) {
        case .success:
            promise.succeed(.certificateVerified(VerificationMetadata(nil)))
        case .failure(let refusal):
            refusals.add(1, ordering: .relaxed)
            logger.warning(
                "refused a TLS peer",
                metadata: [
                    "peer.fingerprint": "\(refusal.fingerprint.map { "\($0)" } ?? "none")",
                    "reason": "\(refusal.reason)",
                ]
            )
            promise.succeed(.failed)
        }
    }

    private func date(_ time: time_t) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(time)))
    }
}

/// Why a peer's certificate was refused.
public struct PinningRefusal: Error, Equatable, Sendable {
    public var fingerprint: Fingerprint?
    public var reason: String

    public init(fingerprint: Fingerprint?, _ reason: String) {
        self.fingerprint = fingerprint
        self.reason = reason
    }
}
