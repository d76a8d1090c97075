import Foundation
import Logging
import PhoneLinkContract

/// Hands a race partner's newest figures to one connected wearable: at once on (re)connection (so
/// the partner never jumps after a cut), then each time the relay brought newer ones. Not durable
/// and not acked: a snapshot is the present, and the next one replaces it.
struct PartnerForwarder {
    let inbox: Inbox
    let wearable: String
    let queue: AsyncStream<Wearbridge_Link_V1_PhoneMessage>.Continuation
    let logger: Logger
    /// How long a partner snapshot may be shown after the relay received it (s).
    var shownFor = 10.0
    /// How often the inbox's partner version is looked at (s): a read happens only when it moved.
    var every = 0.1

    func run() async {
        var sent: [String: Int64] = [:]
        var seenVersion = -1
        while !Task.isCancelled {
            let version = inbox.partnerVersion.load(ordering: .relaxed)
            if version != seenVersion {
                seenVersion = version
                do {
                    for (race, snapshot) in try inbox.partnerSnapshots(wearable: wearable)
                    where snapshot.key > sent[race.run, default: 0] {
                        sent[race.run] = snapshot.key
                        queue.yield(.with { $0.partnerSnapshot = Self.wire(race, snapshot, shownFor: shownFor) })
                    }
                } catch {
                    logger.warning("cannot read the partner's figures", metadata: ["error": "\(error)"])
                }
            }
            try? await Task.sleep(for: .milliseconds(Int(every * 1000)))
        }
    }

    static func wire(
        _ race: Inbox.RelayRace,
        _ item: Inbox.PartnerItem,
        shownFor: Double
    )
        -> Wearbridge_Link_V1_PartnerSnapshot
    {
        .with {
            $0.run = race.run
            $0.seq = item.key
            $0.distanceDm = UInt32(clamping: Int(((item.distance ?? 0) * 10).rounded()))
            $0.elapsedDs = UInt32(clamping: Int(((item.elapsed ?? 0) * 10).rounded()))
            $0.paused = item.paused
            let gpsTime = (Inbox.details(item.body)["gps_time"] as? NSNumber)?.doubleValue
            $0.gpsTimeMs = gpsTime.map { Int64(($0 * 1000).rounded()) } ?? 0
            $0.expiresAtMs = item.at > 0 ? Int64(((item.at + shownFor) * 1000).rounded()) : 0
        }
    }
}
