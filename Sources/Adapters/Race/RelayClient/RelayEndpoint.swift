import Foundation
import NIOSSL
import PostgresNIO

/// Where the relay is and who we are to it. A runner always comes over TLS with the client
/// certificate whose CN is their name, and checks the server's certificate against the relay's CA;
/// the owner (migrations, enrolment) may come over a local socket instead.
public struct RelayEndpoint: Sendable {
    public enum Transport: Sendable, Equatable {
        /// A Unix socket directory, as PostgreSQL's `host=/dir` says it.
        case socket(directory: String)
        case tcp(host: String)
    }

    public var transport: Transport
    public var port: Int
    public var database: String
    public var user: String
    public var password: String?
    /// PEM files: the CA that signed the server's certificate, our certificate and key (for `cert`
    /// authentication). With no CA a TCP connection verifies against the system's roots.
    public var caFile: String?
    public var certificateFile: String?
    public var keyFile: String?

    public init(
        transport: Transport,
        port: Int = 5432,
        database: String = "postgres",
        user: String,
        password: String? = nil,
        caFile: String? = nil,
        certificateFile: String? = nil,
        keyFile: String? = nil
    ) {
        self.transport = transport
        self.port = port
        self.database = database
        self.user = user
        self.password = password
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }

    /// A runner: TLS with their certificate, the server checked against the relay's CA.
    public static func runner(
        host: String,
        port: Int,
        database: String,
        name: String,
        caFile: String,
        certificateFile: String,
        keyFile: String
    ) -> RelayEndpoint {
        RelayEndpoint(
            transport: .tcp(host: host),
            port: port,
            database: database,
            user: name,
            caFile: caFile,
            certificateFile: certificateFile,
            keyFile: keyFile
        )
    }

    /// A libpq-style URL: `postgresql://user[:password]@[host][:port]/database?host=/socket/dir&port=N
    /// &sslrootcert=ca.pem&sslcert=c.pem&sslkey=k.pem`. The password may also come from PGPASSWORD.
    public static func parse(url text: String, environment: [String: String] = [:]) throws -> RelayEndpoint {
        guard let url = URLComponents(string: text), url.scheme == "postgresql" || url.scheme == "postgres" else {
            throw RelayError.badURL(text, "it is not a postgresql:// URL")
        }
        guard let user = url.user, !user.isEmpty else { throw RelayError.badURL(text, "it names no user") }
        var query: [String: String] = [:]
        for item in url.queryItems ?? [] { query[item.name] = item.value ?? "" }
        let known: Set = ["host", "port", "sslrootcert", "sslcert", "sslkey", "sslmode"]
        if let unknown = query.keys.sorted().first(where: { !known.contains($0) }) {
            throw RelayError.badURL(text, "unknown parameter \(unknown)")
        }
        let portText = query["port"] ?? url.port.map(String.init) ?? "5432"
        guard let port = Int(portText), (1...65535).contains(port) else {
            throw RelayError.badURL(text, "port \(portText) is not 1 to 65535")
        }
        let transport: Transport
        if let host = query["host"] ?? url.host, !host.isEmpty {
            transport = host.hasPrefix("/") ? .socket(directory: host) : .tcp(host: host)
        } else {
            throw RelayError.badURL(text, "it names no host or socket directory (?host=/dir)")
        }
        var database = url.path
        if database.hasPrefix("/") { database.removeFirst() }
        return RelayEndpoint(
            transport: transport,
            port: port,
            database: database.isEmpty ? user : database,
            user: user,
            password: url.password ?? environment["PGPASSWORD"],
            caFile: query["sslrootcert"],
            certificateFile: query["sslcert"],
            keyFile: query["sslkey"]
        )
    }

    /// Where errors say we were going.
    public var place: String {
        switch transport {
        case .socket(let directory): "\(directory)/.s.PGSQL.\(port) as \(user)"
        case .tcp(let host): "\(host):\(port) as \(user)"
        }
    }

    /// The session limits a runner's connection asks for, in milliseconds: the relay's own defaults
    /// (`relay.limits`), whatever the role was given.
    static let sessionLimits = [
        ("statement_timeout", "10000"), ("lock_timeout", "2000"), ("idle_in_transaction_session_timeout", "10000"),
    ]

    /// postgres-nio's configuration; TLS is required on TCP and the server's name is verified.
    func configuration() throws -> PostgresConnection.Configuration {
        switch transport {
        case .socket(let directory):
            return PostgresConnection.Configuration(
                unixSocketPath: "\(directory)/.s.PGSQL.\(port)",
                username: user,
                password: password,
                database: database
            )
        case .tcp(let host):
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.minimumTLSVersion = .tlsv12
            do {
                if let caFile { tls.trustRoots = .file(caFile) }
                if let certificateFile {
                    tls.certificateChain = try NIOSSLCertificate.fromPEMFile(certificateFile).map { .certificate($0) }
                }
                if let keyFile { tls.privateKey = .privateKey(try NIOSSLPrivateKey(file: keyFile, format: .pem)) }
                let context = try NIOSSLContext(configuration: tls)
                var configuration = PostgresConnection.Configuration(
                    host: host,
                    port: port,
                    username: user,
                    password: password,
                    database: database,
                    tls: .require(context)
                )
                configuration.options.connectTimeout = .seconds(10)
                // No statement, lock wait or open transaction of ours holds the relay (or us) for
                // long, whatever the relay's role defaults are.
                configuration.options.additionalStartupParameters = Self.sessionLimits
                return configuration
            } catch {
                throw RelayError.credentials(
                    "the relay's TLS files (ca \(caFile ?? "system"), certificate \(certificateFile ?? "none"), "
                        + "key \(keyFile ?? "none")) cannot be used: \(error)"
                )
            }
        }
    }
}
