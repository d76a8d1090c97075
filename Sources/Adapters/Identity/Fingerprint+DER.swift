import CertificateFingerprint
import Crypto

extension Fingerprint {
    /// The fingerprint of a certificate's DER bytes.
    public init(der: [UInt8]) {
        self.init(sha256: Array(SHA256.hash(data: der)))
    }
}
