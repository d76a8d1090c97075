import Foundation
import Logging
import PhoneLinkContract
import PhoneLinkDelivery
import ProcessClock
import Synchronization

/// Pulls ended sessions' whole records from connected wearables, one chunk in flight per
/// wearable; each chunk is committed with its cursor before the next is asked for.
final class BackfillPuller: Sendable {
    let inbox: Inbox
    let connections: Connections
    let chunkRows: Int
    let logger: Logger
    /// The phone's wall clock (Unix s).
    let clock: WallClock
    /// Which requests are in flight, and when to ask again (the pure part).
    private let pacing = Mutex(BackfillPacing())

    init(
        inbox: Inbox,
        connections: Connections,
        chunkRows: Int,
        logger: Logger,
        clock: WallClock
    ) {
        self.inbox = inbox
        self.connections = connections
        self.chunkRows = chunkRows
        self.logger = logger
        self.clock = clock
    }

    /// Asks `wearable` for the next chunk, unless one is in flight (and not taken as lost).
    func kick(_ wearable: String) {
        let now = clock.now()
        guard pacing.withLock({ $0.mayAsk(wearable, now: now) }), connections.isConnected(wearable) else { return }
        do {
            guard let (session, after) = try inbox.backfill.next(wearable: wearable) else { return }
            let request = Wearbridge_Link_V1_PhoneMessage.with {
                $0.backfillRequest = .with {
                    $0.session = session
                    $0.afterSeq = UInt64(after)
                    $0.maxRows = UInt32(chunkRows)
                }
            }
            pacing.withLock { $0.asked(wearable, at: now) }
            if !connections.send(request, to: wearable) { pacing.withLock { $0.notSent(wearable) } }
        } catch {
            logger.warning("cannot read the backfill queue", metadata: ["error": "\(error)"])
        }
    }

    /// A chunk arrived: committed with its cursor, then the next asked for (an empty, unfinished
    /// chunk waits for the next round instead of asking at once).
    func received(_ chunk: Wearbridge_Link_V1_BackfillChunk, from wearable: String) async throws {
        let added = try await inbox.backfill.commit(chunk, wearable: wearable)
        if chunk.done {
            // A running session followed for the dashboard completes every round: debug, not info.
            let ended = (try? inbox.link.sessionEnded(chunk.session)) ?? true
            logger.log(
                level: ended ? .info : .debug,
                "backfill complete",
                metadata: ["session": "\(chunk.session)", "unknown": "\(chunk.unknownSession)", "rows": "\(added)"]
            )
        }
        let next = pacing.withLock { $0.received(from: wearable, rows: chunk.rows.count, done: chunk.done) }
        if next == .askNow { kick(wearable) }
    }

    func disconnected(_ wearable: String) {
        pacing.withLock { $0.disconnected(wearable) }
    }
}
