import GRPCNIOTransportHTTP2
import Identity

/// The phone link's mutual TLS, set up the same way on both ends: this side's identity from its
/// files, and the peer accepted only by `PeerPinning` (its pinned fingerprint within its validity),
/// never by a name, so addresses and self-signed certificates work alike. No certificate authority is
/// trusted, the system's included: a wearable on a minimal Debian has no CA bundle, and TLS set up
/// with the system default would not even start there.
public enum MutualTLS {
    /// The wearable's end, dialling the phone.
    public static func client(
        _ identity: NodeIdentity,
        pinning: PeerPinning
    ) -> HTTP2ClientTransport.Posix.TransportSecurity {
        .mTLS(
            certificateChain: [.file(path: identity.certificatePath, format: .pem)],
            privateKey: .file(path: identity.keyPath, format: .pem)
        ) { tls in
            tls.trustRoots = .certificates([])
            tls.serverCertificateVerification = .noHostnameVerification
            tls.customVerificationCallback = { certificates, promise in pinning.verify(certificates, promise) }
        }
    }

    /// The phone's end, accepting wearables.
    public static func server(
        _ identity: NodeIdentity,
        pinning: PeerPinning
    ) -> HTTP2ServerTransport.Posix.TransportSecurity {
        .mTLS(
            certificateChain: [.file(path: identity.certificatePath, format: .pem)],
            privateKey: .file(path: identity.keyPath, format: .pem)
        ) { tls in
            tls.trustRoots = .certificates([])
            tls.clientCertificateVerification = .noHostnameVerification
            tls.customVerificationCallback = { certificates, promise in pinning.verify(certificates, promise) }
        }
    }
}
