import CertificateFingerprint
import Crypto
import Foundation
import X509

/// This node's TLS identity: a P-256 key and a self-signed certificate in the state directory,
/// created on first use. The peer pins the certificate's fingerprint; no CA is involved.
public struct NodeIdentity: Sendable {
    public static let keyFile = "identity.key.pem"
    public static let certificateFile = "identity.crt.pem"

    public let keyPath: String
    public let certificatePath: String
    public let certificatePEM: String
    public let fingerprint: Fingerprint

    /// Loads the identity in `directory`, creating it (named `commonName`) if there is none.
    /// `created` says which.
    public static func loadOrCreate(
        directory: String,
        commonName: String,
        now: Date = Date()
    ) throws(IdentityError) -> (identity: NodeIdentity, created: Bool) {
        let keyPath = (directory as NSString).appendingPathComponent(keyFile)
        let certificatePath = (directory as NSString).appendingPathComponent(certificateFile)
        let manager = FileManager.default
        if manager.fileExists(atPath: keyPath), manager.fileExists(atPath: certificatePath) {
            return (try load(keyPath: keyPath, certificatePath: certificatePath), false)
        }
        let key = P256.Signing.PrivateKey()
        let name: DistinguishedName
        do {
            name = try DistinguishedName { CommonName(commonName) }
            let certificate = try Certificate(
                version: .v3,
                serialNumber: Certificate.SerialNumber(),
                publicKey: .init(key.publicKey),
                // A day back: a Pi without a real-time clock may boot a little behind.
                notValidBefore: now.addingTimeInterval(-86_400),
                notValidAfter: now.addingTimeInterval(20 * 365 * 86_400),
                issuer: name,
                subject: name,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    SubjectAlternativeNames([.dnsName(commonName)])
                },
                issuerPrivateKey: .init(key)
            )
            let pem = try certificate.serializeAsPEM().pemString
            let owner = owner(of: directory)
            try write(key.pemRepresentation + "\n", to: keyPath, mode: 0o600, owner: owner)
            try write(pem + "\n", to: certificatePath, mode: 0o644, owner: owner)
        } catch let error as IdentityError {
            throw error
        } catch {
            throw IdentityError.create(directory: directory, reason: "\(error)")
        }
        return (try load(keyPath: keyPath, certificatePath: certificatePath), true)
    }

    /// Reads an existing identity, checking that the key and certificate belong together.
    public static func load(keyPath: String, certificatePath: String) throws(IdentityError) -> NodeIdentity {
        do {
            let keyPEM = try String(contentsOfFile: keyPath, encoding: .utf8)
            let certificatePEM = try String(contentsOfFile: certificatePath, encoding: .utf8)
            let key = try P256.Signing.PrivateKey(pemRepresentation: keyPEM)
            let certificate = try Certificate(pemEncoded: certificatePEM)
            guard certificate.publicKey == Certificate.PublicKey(key.publicKey) else {
                throw IdentityError.mismatch(keyPath: keyPath, certificatePath: certificatePath)
            }
            return NodeIdentity(
                keyPath: keyPath,
                certificatePath: certificatePath,
                certificatePEM: certificatePEM,
                fingerprint: Fingerprint(der: try certificate.serializeAsPEM().derBytes)
            )
        } catch let error as IdentityError {
            throw error
        } catch {
            throw IdentityError.unreadable(path: certificatePath, reason: "\(error)")
        }
    }

    /// The fingerprint of a PEM certificate file (a peer's, named in a config).
    public static func fingerprint(ofCertificateAt path: String) throws(IdentityError) -> Fingerprint {
        do {
            let certificate = try Certificate(pemEncoded: try String(contentsOfFile: path, encoding: .utf8))
            return Fingerprint(der: try certificate.serializeAsPEM().derBytes)
        } catch {
            throw IdentityError.unreadable(path: path, reason: "\(error)")
        }
    }

    /// Who must own new files in `directory`: its owner, when root makes them there (`wearbridge identity`
    /// run as root in the service's state directory), so that the service user can read its own key.
    /// nil when this process is not root: its files are its own.
    private static func owner(of directory: String) -> (uid: uid_t, gid: gid_t)? {
        var status = stat()
        guard geteuid() == 0, stat(directory, &status) == 0 else { return nil }
        return (status.st_uid, status.st_gid)
    }

    private static func write(_ text: String, to path: String, mode: mode_t, owner: (uid: uid_t, gid: gid_t)?) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard fd >= 0 else { throw IdentityError.create(directory: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        if let owner, fchown(fd, owner.uid, owner.gid) != 0 {
            throw IdentityError.create(directory: path, reason: String(cString: strerror(errno)))
        }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ Foundation.write(fd, $0.baseAddress, $0.count) }) == bytes.count, fsync(fd) == 0
        else { throw IdentityError.create(directory: path, reason: String(cString: strerror(errno))) }
    }
}

/// Why an identity could not be made or read: each names the file.
public enum IdentityError: Error, CustomStringConvertible {
    case create(directory: String, reason: String)
    case unreadable(path: String, reason: String)
    case mismatch(keyPath: String, certificatePath: String)

    public var description: String {
        switch self {
        case .create(let directory, let reason): "cannot create the TLS identity in \(directory): \(reason)"
        case .unreadable(let path, let reason): "cannot read the certificate or key \(path): \(reason)"
        case .mismatch(let key, let certificate): "\(key) is not the key of \(certificate)"
        }
    }
}
