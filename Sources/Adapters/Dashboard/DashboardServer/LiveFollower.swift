import Foundation
import Logging
import PhoneServer
import ProcessClock

/// While a page watches a wearable, its open session is backfilled as it runs (rows after the
/// cursor, every 2 s), so the track and the heart-rate chart come from the phone's durable copy;
/// with no page open the wearable is asked for nothing more than before. It also wakes the
/// streams once a second, for the link strip's ages.
struct LiveFollower: Sendable {
    let inbox: Inbox
    /// The phone's wall clock, shared with its other shells.
    let clock: WallClock
    let streams: StreamCount
    let logger: Logger

    func run() async {
        var round = 0
        while !Task.isCancelled {
            round += 1
            if round % 2 == 0 {
                for wearable in streams.watched { await follow(wearable) }
            }
            inbox.changes.changed()
            try? await Task.sleep(for: .seconds(1))
        }
    }

    private func follow(_ wearable: String) async {
        do {
            guard let epoch = try inbox.link.record(wearable: wearable)?.epoch,
                let newest = try inbox.link.newestSession(wearable: wearable, epoch: epoch), !newest.ended,
                try inbox.backfill.state(session: newest.session)?.state != .pulling
            else { return }
            try await inbox.backfill.request(
                wearable: wearable,
                session: newest.session,
                at: clock.now()
            )
        } catch {
            logger.warning("cannot follow a session for the dashboard", metadata: ["error": "\(error)"])
        }
    }
}
