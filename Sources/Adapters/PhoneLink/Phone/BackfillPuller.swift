import Foundation
import Logging
import PhoneLinkContract
import Synchronization

/// Pulls ended sessions' whole records from connected wearables, one chunk in flight per
/// wearable; each chunk is committed with its cursor before the next is asked for.
final class BackfillPuller: Sendable {
    let inbox: Inbox
    let connections: Connections
    let chunkRows: Int
    let logger: Logger
    /// Wearables with a request in flight, and when it was sent (a lost one is asked again).
    private let inFlight = Mutex<[String: Double]>([:])

    init(inbox: Inbox, connections: Connections, chunkRows: Int, logger: Logger) {
        self.inbox = inbox
        self.connections = connections
        self.chunkRows = chunkRows
        self.logger = logger
    }

    /// Asks `wearable` for the next chunk, unless one is in flight (or was asked under 10 s ago).
    func kick(_ wearable: String) {
        let now = Date().timeIntervalSince1970
        let busy = inFlight.withLock { state in
            if let sent = state[wearable], now - sent < 10 { return true }
            return false
        }
        guard !busy, connections.isConnected(wearable) else { return }
        do {
            guard let (session, after) = try inbox.nextBackfill(wearable: wearable) else { return }
            let request = Wearbridge_Link_V1_PhoneMessage.with {
                $0.backfillRequest = .with {
                    $0.session = session
                    $0.afterSeq = UInt64(after)
                    $0.maxRows = UInt32(chunkRows)
                }
            }
            inFlight.withLock { $0[wearable] = now }
            if !connections.send(request, to: wearable) { inFlight.withLock { $0[wearable] = nil } }
        } catch {
            logger.warning("cannot read the backfill queue", metadata: ["error": "\(error)"])
        }
    }

    /// A chunk arrived: committed with its cursor, then the next asked for (an empty, unfinished
    /// chunk waits for the next round instead of asking at once).
    func received(_ chunk: Wearbridge_Link_V1_BackfillChunk, from wearable: String) async throws {
        let added = try await inbox.commitBackfill(chunk, wearable: wearable)
        if chunk.done {
            // A running session followed for the dashboard completes every round: debug, not info.
            let ended = (try? inbox.sessionEnded(chunk.session)) ?? true
            logger.log(
                level: ended ? .info : .debug,
                "backfill complete",
                metadata: ["session": "\(chunk.session)", "unknown": "\(chunk.unknownSession)", "rows": "\(added)"]
            )
        }
        if chunk.rows.isEmpty, !chunk.done {
            return
        }
        inFlight.withLock { $0[wearable] = nil }
        kick(wearable)
    }

    func disconnected(_ wearable: String) {
        inFlight.withLock { $0[wearable] = nil }
    }
}
