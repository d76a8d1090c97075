import RelayClient
import RelayContract
import Testing

@Suite("Relay endpoint and contract")
struct RelayEndpointTests {
    @Test("a socket URL, a TCP URL with TLS files, and the password from the environment")
    func parsesURLs() throws {
        let socket = try RelayEndpoint.parse(url: "postgresql://relay_admin@/postgres?host=/run/relay&port=55432")
        #expect(socket.transport == .socket(directory: "/run/relay"))
        #expect(socket.port == 55432)
        #expect(socket.user == "relay_admin")
        #expect(socket.database == "postgres")
        let tcp = try RelayEndpoint.parse(
            url: "postgres://owner@db.example.org:6543/races?sslrootcert=/ca.pem",
            environment: ["PGPASSWORD": "secret"]
        )
        #expect(tcp.transport == .tcp(host: "db.example.org"))
        #expect(tcp.port == 6543)
        #expect(tcp.database == "races")
        #expect(tcp.password == "secret")
        #expect(tcp.caFile == "/ca.pem")
    }

    @Test(
        "bad URLs say what is wrong",
        arguments: [
            ("mysql://x@h/db", "not a postgresql"), ("postgresql://@h/db", "no user"),
            ("postgresql://u@/db", "no host"), ("postgresql://u@h/db?port=0", "port 0"),
            ("postgresql://u@h/db?sslpassword=x", "unknown parameter sslpassword"),
        ]
    )
    func refusesBadURLs(url: String, reason: String) {
        #expect(throws: RelayError.self) { try RelayEndpoint.parse(url: url) }
        do {
            _ = try RelayEndpoint.parse(url: url)
        } catch {
            #expect("\(error)".contains(reason), "\(error)")
        }
    }

    @Test("runner names are what a role and a CN can both be without quoting")
    func runnerNames() {
        #expect(RunnerName("alice")?.text == "alice")
        #expect(RunnerName("runner_2") != nil)
        for bad in ["", "Alice", "2fast", "a-b", "a b", "bob;drop", String(repeating: "a", count: 64)] {
            #expect(RunnerName(bad) == nil, "\(bad)")
        }
    }

    @Test("the embedded migrations are numbered from 1 with no gap and carry their SQL")
    func migrationsAreContiguous() {
        #expect(!RelayMigration.all.isEmpty)
        for (index, migration) in RelayMigration.all.enumerated() {
            #expect(migration.version == index + 1)
            #expect(migration.sha256.count == 64)
            #expect(migration.sql.contains("relay"))
        }
    }
}
