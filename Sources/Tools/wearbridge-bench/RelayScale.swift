import ArgumentParser
import Foundation
import Logging
import NIOPosix
import RelayClient
import RelayContract
import Synchronization

/// `wearbridge-bench relay-scale`: one PostgreSQL relay under many simultaneous races. Simulated
/// runners (not full phones), each on its own TLS connection, post a snapshot a second and read the
/// partner's newest snapshot twice a second, as a phone's pump does. Prints sustained inserts per second, the
/// insert's round trip and the relay leg (a runner's commit to the partner holding it) at p50 and
/// p99, the relay's CPU, and rows and bytes per runner per hour. scripts/bench/relay.sh runs it.
struct RelayScale: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay-scale",
        abstract: "Many simulated races against one relay: throughput, latency, the relay's CPU."
    )

    @Option(name: .customLong("admin-url")) var adminURL: String
    @Option var host = "localhost"
    @Option var port: Int
    @Option var ca: String
    @Option(help: "The load generator's certificate (its CN maps to every simulated runner).") var cert: String
    @Option var key: String
    @Option(help: "The cluster's data directory (its postmaster.pid names the server whose CPU is read).")
    var data: String
    @Option var races = 500
    @Option var seconds = 60.0
    @Option(help: "Runner names are PREFIX0001...; a fresh prefix for each run on one cluster.") var prefix = "r"
    @Option(help: "What the report calls this run (e.g. the schema's version).") var label = "relay"

    func run() async throws {
        let logger = {
            var logger = Logger(label: "relay-scale")
            logger.logLevel = .critical
            return logger
        }()
        let admin = try RelayEndpoint.parse(url: adminURL)
        let runners = (1...(races * 2)).compactMap { RunnerName(prefix + String(format: "%05d", $0)) }
        let setup = ContinuousClock.now
        try await RelayConnection.with(admin, logger: logger) { relay in
            for runner in runners { _ = try await RelayEnrolment().enrol(runner, on: relay) }
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        defer { group.shutdownGracefully { _ in } }
        let shared = Shared()
        // Everyone connects and every race is accepted before the window opens.
        let start = ContinuousClock.now + .seconds(15 + Double(races) * 0.06)
        let end = start + .seconds(seconds)
        // A relay that stops answering is reported, not waited for.
        let watchdog = Task {
            try await Task.sleep(until: end + .seconds(30))
            // The relay may not even take a new connection now: report without asking it.
            try await report(shared, admin: nil, logger: logger, setup: setup)
            Foundation.exit(0)
        }
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                // Read inside the window: a backend's CPU time leaves /proc with it at disconnect.
                try await Task.sleep(until: start)
                shared.cpuAtStart.withLock { $0 = Self.serverCPU(data) }
                try await Task.sleep(until: end)
                shared.cpuAtEnd.withLock { $0 = Self.serverCPU(data) }
            }
            for pair in 0..<races {
                for (index, (me, partner)) in [
                    (runners[2 * pair], runners[2 * pair + 1]), (runners[2 * pair + 1], runners[2 * pair]),
                ].enumerated() {
                    let endpoint = RelayEndpoint.runner(
                        host: host,
                        port: port,
                        database: admin.database,
                        name: me.text,
                        caFile: ca,
                        certificateFile: cert,
                        keyFile: key
                    )
                    tasks.addTask {
                        try await RelayConnection.with(endpoint, group: group, logger: logger) { relay in
                            try await runner(
                                RelayFeed(relay),
                                me: me,
                                partner: partner,
                                invites: index == 0,
                                shared: shared,
                                start: start,
                                end: end
                            )
                        }
                    }
                }
            }
            try await tasks.waitForAll()
        }
        watchdog.cancel()
        try await report(shared, admin: admin, logger: logger, setup: setup)
    }

    private func report(
        _ shared: Shared,
        admin: RelayEndpoint?,
        logger: Logger,
        setup: ContinuousClock.Instant
    )
        async throws
    {
        let used = (shared.cpuAtEnd.withLock { $0 } ?? .nan) - (shared.cpuAtStart.withLock { $0 } ?? .nan)
        var (rows, bytes): (Int64, Int64) = (0, 0)
        if let admin {
            (rows, bytes) = try await RelayConnection.with(admin, logger: logger) { relay in
                let row = try await relay.rows(
                    "SELECT count(*)::int8, pg_total_relation_size('relay.messages')::int8 FROM relay.messages"
                )[0]
                return try row.decode((Int64, Int64).self)
            }
        }
        let samples = shared.samples.withLock { $0 }
        let perRow = rows > 0 ? Double(bytes) / Double(rows) : .nan
        print(
            "relay-scale \(label): \(races) races (\(races * 2) runners), \(Int(seconds)) s; \(Int((ContinuousClock.now - setup).components.seconds)) s wall in all"
        )
        print(
            String(format: "  inserts/s sustained    %.1f (offered %d)", Double(samples.inserts) / seconds, races * 2)
        )
        print(
            String(
                format: "  insert round trip      p50 %.2f ms  p99 %.2f ms",
                samples.insert.percentile(0.5),
                samples.insert.percentile(0.99)
            )
        )
        print(
            String(
                format: "  relay leg              p50 %.2f ms  p99 %.2f ms  (%d samples: commit -> partner holds it)",
                samples.leg.percentile(0.5),
                samples.leg.percentile(0.99),
                samples.leg.count
            )
        )
        print(String(format: "  relay CPU              %.2f cores", used / seconds))
        print(
            String(
                format: "  per runner per hour    3600 rows, %.2f MB (%.0f bytes a row with indexes)",
                perRow * 3600 / 1e6,
                perRow
            )
        )
        print("  refused                \(samples.refused)")
        let stalled = races * 2 - samples.finished
        if stalled > 0 {
            print(
                "  STALLED                \(stalled) runners still waiting for the relay 30 s after the window closed"
            )
        }
        print(
            String(
                format:
                    "RESULT stalled=%d refused=%d races=%d inserts_per_s=%.1f insert_p50_ms=%.3f insert_p99_ms=%.3f leg_p50_ms=%.3f leg_p99_ms=%.3f relay_cpu_cores=%.3f bytes_per_row=%.0f",
                stalled,
                samples.refused,
                races,
                Double(samples.inserts) / seconds,
                samples.insert.percentile(0.5),
                samples.insert.percentile(0.99),
                samples.leg.percentile(0.5),
                samples.leg.percentile(0.99),
                used / seconds,
                perRow
            )
        )
    }

    /// One simulated runner: the race set up (the first of a pair invites, the second accepts),
    /// then a snapshot a second and the partner's fetched on every wake, until `end`.
    private func runner(
        _ feed: RelayFeed,
        me: RunnerName,
        partner: RunnerName,
        invites: Bool,
        shared: Shared,
        start: ContinuousClock.Instant,
        end: ContinuousClock.Instant
    ) async throws {
        let relay = feed.relay
        // Races are set up over the lead-in, as invites and acceptances spread over time are.
        try await Task.sleep(for: .milliseconds(Int.random(in: 0..<max(1, races * 30))))
        let run: UUID
        if invites {
            var invitation = RaceDesk.Invitation(partner: partner)
            invitation.leadSeconds = 10
            run = try await RaceDesk(relay).invite(invitation)
        } else {
            while true {
                if let pending = try await RaceDesk(relay).runs(openOnly: true).first(where: { $0.state == .invited }) {
                    run = pending.id
                    _ = try await RaceDesk(relay).accept(run)
                    break
                }
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // The pump's tick: the partner's newest snapshot is read twice a second.
                try await Task.sleep(until: start + .milliseconds(Int.random(in: 0..<500)))
                var seen: Int64 = 0
                while ContinuousClock.now < end {
                    if let newest = try await feed.latestSnapshot(run, of: partner.text), newest.seq > seen {
                        seen = newest.seq
                        shared.held("\(partner.text) \(newest.seq)", at: ContinuousClock.now)
                    }
                    try await Task.sleep(for: .milliseconds(500))
                }
            }
            group.addTask {
                // Evenly spread over the second, as independent phones are.
                try await Task.sleep(until: start + .milliseconds(Int.random(in: 0..<1000)))
                var seq: Int64 = 0
                var tick = ContinuousClock.now
                while tick < end {
                    seq += 1
                    let message = RelayMessage(
                        runID: run,
                        runner: me.text,
                        seq: seq,
                        messageClass: .snapshot,
                        kind: "snapshot",
                        distanceMetres: 3 * Double(seq),
                        elapsedSeconds: Double(seq),
                        movingSeconds: Double(seq),
                        paused: false,
                        body: "{}"
                    )
                    let sent = ContinuousClock.now
                    do {
                        try await feed.post(message)
                        let done = ContinuousClock.now
                        shared.committed("\(me.text) \(seq)", at: done, took: done - sent)
                    } catch RelayError.refused {
                        shared.samples.withLock { $0.refused += 1 }
                    }
                    tick += .seconds(1)
                    try await Task.sleep(until: tick)
                }
                shared.samples.withLock { $0.finished += 1 }
            }
            try await group.waitForAll()
        }
    }

    /// The relay's processes' CPU time (s): the postmaster and its children, from /proc.
    static func serverCPU(_ data: String) -> Double? {
        guard let pidText = try? String(contentsOfFile: data + "/postmaster.pid", encoding: .utf8),
            let postmaster = pidText.split(separator: "\n").first.flatMap({ Int($0) })
        else { return nil }
        var total = 0.0
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int(entry), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // After the command: state ppid ... utime (12th) stime (13th).
            guard fields.count > 13, pid == postmaster || Int(fields[1]) == postmaster else { continue }
            total += (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        }
        return total / 100
    }
}

/// What the runners share: when each snapshot was committed, and the samples.
final class Shared: Sendable {
    let commits = Mutex<[String: ContinuousClock.Instant]>([:])
    let samples = Mutex(Samples())
    let cpuAtStart = Mutex<Double?>(nil)
    let cpuAtEnd = Mutex<Double?>(nil)

    func committed(_ key: String, at instant: ContinuousClock.Instant, took: Duration) {
        commits.withLock { $0[key] = instant }
        samples.withLock {
            $0.inserts += 1
            $0.insert.append(Self.milliseconds(took))
        }
    }

    func held(_ key: String, at instant: ContinuousClock.Instant) {
        guard let committed = commits.withLock({ $0[key] }) else { return }
        samples.withLock { $0.leg.append(Self.milliseconds(instant - committed)) }
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}

/// Latencies in milliseconds and counts, merged from every runner.
struct Samples: Sendable {
    var insert: [Double] = []
    var leg: [Double] = []
    var inserts = 0
    var refused = 0
    var finished = 0
}
