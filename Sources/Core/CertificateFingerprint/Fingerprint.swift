import HexCoding

/// A certificate's SHA-256 fingerprint over its DER bytes, shown as OpenSSL shows it
/// (`openssl x509 -noout -fingerprint -sha256`), so that either side can be checked by hand. Apart
/// from the hashing (Identity's `init(der:)`), so that a config is read without a crypto library.
public struct Fingerprint: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// A SHA-256 digest already computed: 32 bytes.
    public init(sha256 digest: [UInt8]) {
        precondition(digest.count == 32, "a SHA-256 digest is 32 bytes")
        bytes = digest
    }

    /// Parses "AB:CD:...", "abcd..." or "sha256:..." (any case); nil unless 32 bytes of hex.
    public init?(_ text: String) {
        var hex = text.lowercased()
        if hex.hasPrefix("sha256:") {
            hex.removeFirst(7)
        } else if hex.hasPrefix("sha256 fingerprint=") {
            hex.removeFirst(19)
        }
        guard let bytes = try? Hex.decode(hex), bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    public var description: String {
        bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: ":")
    }
}
