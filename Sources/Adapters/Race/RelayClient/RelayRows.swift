import Foundation
import PostgresNIO
import RelayContract

/// The relay's rows as typed values. Every query that reads them selects these columns, cast to the
/// types decoded here, so a schema change shows up in one place.
enum RelayRows {
    static let runColumns = """
        id, inviter::text, invitee::text, partner::text, activity, distance_m,
        extract(epoch FROM lead)::float8 AS lead_s, state, invited_at, expires_at, start_at, ended_at,
        winner::text, reason, rematch_of
        """

    static func run(_ row: PostgresRow) throws -> RelayRun {
        let cells = row.makeRandomAccess()
        let state = try cells["state"].decode(String.self)
        guard let known = RelayRun.State(rawValue: state) else {
            throw RelayError.notFound("the relay reports a run in state \(state), which this program does not know")
        }
        return RelayRun(
            id: try cells["id"].decode(UUID.self),
            inviter: try cells["inviter"].decode(String.self),
            invitee: try cells["invitee"].decode(String.self),
            partner: try cells["partner"].decode(String.self),
            activity: try cells["activity"].decode(String.self),
            distanceMetres: try cells["distance_m"].decode(Double?.self),
            leadSeconds: try cells["lead_s"].decode(Double.self),
            state: known,
            invitedAt: try cells["invited_at"].decode(Date.self),
            expiresAt: try cells["expires_at"].decode(Date.self),
            startAt: try cells["start_at"].decode(Date?.self),
            endedAt: try cells["ended_at"].decode(Date?.self),
            winner: try cells["winner"].decode(String?.self),
            reason: try cells["reason"].decode(String?.self),
            rematchOf: try cells["rematch_of"].decode(UUID?.self)
        )
    }

    static let entryColumns = """
        runner::text, start_offset_ms, last_seen_at, last_distance_m, outcome, ended_at, final_distance_m,
        final_elapsed_s, final_moving_s
        """

    static func entry(_ row: PostgresRow) throws -> RelayEntry {
        let cells = row.makeRandomAccess()
        return RelayEntry(
            runner: try cells["runner"].decode(String.self),
            startOffsetMilliseconds: try cells["start_offset_ms"].decode(Int?.self),
            lastSeenAt: try cells["last_seen_at"].decode(Date?.self),
            lastDistanceMetres: try cells["last_distance_m"].decode(Double?.self),
            outcome: try cells["outcome"].decode(String?.self).flatMap(RelayEntry.Outcome.init(rawValue:)),
            endedAt: try cells["ended_at"].decode(Date?.self),
            finalDistanceMetres: try cells["final_distance_m"].decode(Double?.self),
            finalElapsedSeconds: try cells["final_elapsed_s"].decode(Double?.self),
            finalMovingSeconds: try cells["final_moving_s"].decode(Double?.self)
        )
    }

    static let messageColumns = """
        run_id, runner::text, seq, class, kind, distance_m, elapsed_s, moving_s, paused, body::text, received_at,
        course_m
        """

    static func message(_ row: PostgresRow) throws -> RelayMessage {
        let cells = row.makeRandomAccess()
        let kind = try cells["class"].decode(String.self)
        guard let messageClass = RelayMessage.Class(rawValue: kind) else {
            throw RelayError.notFound("the relay reports a message of class \(kind), which this program does not know")
        }
        return RelayMessage(
            runID: try cells["run_id"].decode(UUID.self),
            runner: try cells["runner"].decode(String.self),
            seq: try cells["seq"].decode(Int64.self),
            messageClass: messageClass,
            kind: try cells["kind"].decode(String.self),
            distanceMetres: try cells["distance_m"].decode(Double?.self),
            elapsedSeconds: try cells["elapsed_s"].decode(Double?.self),
            movingSeconds: try cells["moving_s"].decode(Double?.self),
            paused: try cells["paused"].decode(Bool.self),
            body: try cells["body"].decode(String.self),
            receivedAt: try cells["received_at"].decode(Date?.self),
            courseMetres: try cells["course_m"].decode(Double?.self)
        )
    }

    static let eventColumns = "id, run_id, kind, runner::text, body::text, at"

    static func event(_ row: PostgresRow) throws -> RelayEvent {
        let cells = row.makeRandomAccess()
        let kind = try cells["kind"].decode(String.self)
        guard let known = RelayEvent.Kind(rawValue: kind) else {
            throw RelayError.notFound("the relay reports an event \(kind), which this program does not know")
        }
        return RelayEvent(
            id: try cells["id"].decode(Int64.self),
            runID: try cells["run_id"].decode(UUID.self),
            kind: known,
            runner: try cells["runner"].decode(String?.self),
            body: try cells["body"].decode(String.self),
            at: try cells["at"].decode(Date.self)
        )
    }
}
