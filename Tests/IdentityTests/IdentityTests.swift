import CertificateFingerprint
import Foundation
import Harness
import Identity
import Logging
import NIOSSL
import Testing

/// Identities and pinning: made once, fingerprints as OpenSSL prints them, anything not pinned or
/// out of date refused with the presented fingerprint.
@Suite("Phone link: identity and pinning")
struct IdentityTests {
    private func directory() throws -> String { try temporaryDirectory("identity") }

    @Test func anIdentityIsMadeOnceAndItsFingerprintMatchesOpenSSL() throws {
        let directory = try directory()
        let (first, created) = try NodeIdentity.loadOrCreate(directory: directory, commonName: "pi")
        let (again, createdAgain) = try NodeIdentity.loadOrCreate(directory: directory, commonName: "pi")
        #expect(created && !createdAgain)
        #expect(first.fingerprint == again.fingerprint)
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["x509", "-noout", "-fingerprint", "-sha256", "-in", first.certificatePath]
        let pipe = Pipe()
        openssl.standardOutput = pipe
        try openssl.run()
        openssl.waitUntilExit()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(Fingerprint(output.trimmingCharacters(in: .whitespacesAndNewlines)) == first.fingerprint, "\(output)")
        let mode = try FileManager.default.attributesOfItem(atPath: first.keyPath)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the private key is the owner's only")
    }

    /// `wearbridge identity` run as root in the service's state directory (owned by the service user)
    /// must leave a key the service can read: the files take the directory's owner.
    @Test(.enabled(if: geteuid() == 0, "only root can make files for another user"))
    func rootMakesTheIdentityForTheDirectorysOwner() throws {
        let directory = try directory()
        let service: (uid: uid_t, gid: gid_t) = (4242, 4343)
        #expect(chown(directory, service.uid, service.gid) == 0)
        let identity = try NodeIdentity.loadOrCreate(directory: directory, commonName: "pi").identity
        for path in [identity.keyPath, identity.certificatePath] {
            var status = stat()
            #expect(stat(path, &status) == 0)
            #expect(status.st_uid == service.uid && status.st_gid == service.gid, "\(path)")
        }
    }

    @Test func fingerprintsParseInTheFormsPeopleCopy() {
        let colon = "AB:" + String(repeating: "01:", count: 30) + "FF"
        #expect(Fingerprint(colon) != nil)
        #expect(Fingerprint("sha256:" + colon.lowercased()) == Fingerprint(colon))
        #expect(Fingerprint(colon.replacingOccurrences(of: ":", with: "")) == Fingerprint(colon))
        #expect(Fingerprint("AB:CD") == nil && Fingerprint(String(repeating: "zz", count: 32)) == nil)
    }

    @Test func onlyThePinnedCertificateWithinItsValidityIsAccepted() throws {
        let pinned = try NodeIdentity.loadOrCreate(directory: try directory(), commonName: "phone").identity
        let other = try NodeIdentity.loadOrCreate(directory: try directory(), commonName: "phone").identity
        let pinning = PeerPinning(trusted: [pinned.fingerprint: "phone"], logger: Logger(label: "test"))
        let now = Date().timeIntervalSince1970
        let pinnedCertificate = try NIOSSLCertificate(file: pinned.certificatePath, format: .pem)
        let otherCertificate = try NIOSSLCertificate(file: other.certificatePath, format: .pem)
        #expect(try pinning.judge([pinnedCertificate], now: now).get() == "phone")
        guard case .failure(let refusal) = pinning.judge([otherCertificate], now: now) else {
            Issue.record("accepted a certificate that is not pinned")
            return
        }
        #expect(refusal.fingerprint == other.fingerprint && refusal.reason == "not a pinned certificate")
        guard case .failure(let expired) = pinning.judge([pinnedCertificate], now: now + 21 * 365 * 86_400) else {
            Issue.record("accepted an expired certificate")
            return
        }
        #expect(expired.reason.hasPrefix("expired"))
        guard case .failure(let none) = pinning.judge([], now: now) else {
            Issue.record("accepted no certificate")
            return
        }
        #expect(none.reason == "no certificate")
    }
}
