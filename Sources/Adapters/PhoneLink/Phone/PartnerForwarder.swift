import Foundation
import Logging
import PhoneLinkContract
import PhoneLinkDelivery

/// Hands a race partner's newest figures to one connected wearable: at once on (re)connection (so
/// the partner never jumps after a cut), then each time the relay brought newer ones. Not durable
/// and not acked: a snapshot is the present, and the next one replaces it.
struct PartnerForwarder {
    let races: any RaceLink
    let wearable: String
    let queue: AsyncStream<Wearbridge_Link_V1_PhoneMessage>.Continuation
    let logger: Logger
    /// How long a partner snapshot may be shown after the relay received it (s).
    var shownFor = 10.0
    /// How often the partner version is looked at (s): a read happens only when it moved.
    var every = 0.1

    func run() async {
        var feed = PartnerFeed()
        while !Task.isCancelled {
            if feed.needsReading(version: races.partnerChanges) {
                do {
                    let snapshots = try races.partnerSnapshots(wearable: wearable, shownFor: shownFor)
                    for index in feed.fresh(snapshots.map { ($0.run, $0.seq) }) {
                        queue.yield(.with { $0.partnerSnapshot = snapshots[index] })
                    }
                } catch {
                    logger.warning("cannot read the partner's figures", metadata: ["error": "\(error)"])
                }
            }
            try? await Task.sleep(for: .milliseconds(Int(every * 1000)))
        }
    }
}
