import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// One connection to the relay on an event loop of its own, closed by `with` whatever happens; every
/// error leaves as a `RelayError` that names the relay's rule or the place it could not reach.
public struct RelayConnection: Sendable {
    public let endpoint: RelayEndpoint
    let connection: PostgresConnection
    let logger: Logger

    /// Connects, runs `body`, closes. Without a `group` the connection has an event loop of its own.
    public static func with<Result: Sendable>(
        _ endpoint: RelayEndpoint,
        group: (any EventLoopGroup)? = nil,
        logger: Logger,
        _ body: (RelayConnection) async throws -> Result
    ) async throws -> Result {
        let loops: any EventLoopGroup = group ?? MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { if group == nil { loops.shutdownGracefully { _ in } } }
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                on: loops.any(),
                configuration: try endpoint.configuration(),
                id: 1,
                logger: logger
            )
        } catch {
            throw RelayError.from(error, place: endpoint.place)
        }
        let relay = RelayConnection(endpoint: endpoint, connection: connection, logger: logger)
        do {
            let result = try await body(relay)
            try? await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw RelayError.from(error, place: endpoint.place)
        }
    }

    /// True once the relay or the network closed the connection: a query then would never be answered.
    public var isClosed: Bool { connection.isClosed }

    /// Runs `query` and collects its rows.
    @discardableResult
    public func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        // postgres-nio drops a query written to a closed channel without answering it.
        guard !connection.isClosed else {
            throw RelayError.unreachable(place: endpoint.place, reason: "the connection was closed")
        }
        do {
            var rows: [PostgresRow] = []
            for try await row in try await connection.query(query, logger: logger) { rows.append(row) }
            return rows
        } catch {
            throw RelayError.from(error, place: endpoint.place)
        }
    }

    /// Runs `query`, which returns no rows, and answers how many rows it inserted, updated or deleted.
    public func affected(_ query: PostgresQuery) async throws -> Int {
        guard !connection.isClosed else {
            throw RelayError.unreachable(place: endpoint.place, reason: "the connection was closed")
        }
        do {
            return try await connection.query(query, logger: logger).get().metadata.rows ?? 0
        } catch {
            throw RelayError.from(error, place: endpoint.place)
        }
    }

    /// Runs `body` in one transaction: committed if it returns, rolled back if it throws.
    func transaction<Result: Sendable>(_ body: (RelayConnection) async throws -> Result) async throws -> Result {
        try await rows("BEGIN")
        do {
            let result = try await body(self)
            try await rows("COMMIT")
            return result
        } catch {
            _ = try? await rows("ROLLBACK")
            throw error
        }
    }
}
