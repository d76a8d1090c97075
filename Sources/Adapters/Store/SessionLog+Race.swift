import Foundation
import GRDB
import RaceCore

extension SessionLog {
    /// The virtual race a session runs, from its `race_started` event: a restarted wearable follows
    /// it again without asking anyone. Nil when the session is no race's.
    /// `leaderIsMe` is who the last lead change logged named (nil: none yet).
    public func race(of sessionID: String) throws -> (order: RaceOrder, leaderIsMe: Bool?)? {
        let (detail, lead) = try reader.read { db in
            (
                try String.fetchOne(
                    db,
                    sql: "SELECT detail FROM event WHERE session_id = ? AND kind = 'race_started' ORDER BY seq LIMIT 1",
                    arguments: [sessionID]
                ),
                try String.fetchOne(
                    db,
                    sql: """
                        SELECT kind FROM event WHERE session_id = ? AND kind IN ('race_lead_taken', 'race_lead_lost')
                        ORDER BY seq DESC LIMIT 1
                        """,
                    arguments: [sessionID]
                )
            )
        }
        guard let detail,
            let object = try? JSONSerialization.jsonObject(with: Data(detail.utf8)) as? [String: Any],
            let run = object["run"] as? String, let partner = object["partner"] as? String,
            let startAt = (object["start_at"] as? NSNumber)?.doubleValue
        else { return nil }
        return (
            RaceOrder(
                run: run,
                partner: partner,
                startAt: startAt,
                session: sessionID,
                course: object["course"] as? String
            ),
            lead.map { $0 == "race_lead_taken" }
        )
    }
}
