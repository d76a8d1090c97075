import Foundation
import HeartRate
import HexCoding
import Store

/// The JSON `sessions` and `show` print: stable snake_case field names for scripts.
struct SessionJSON: Encodable {
    var id: String
    var state: String
    var activity: String
    /// ISO 8601 UTC; `start_anchor` says whether GPS or the system clock set it.
    var startedAt: String
    var startAnchor: String
    var endedAt: String?
    var endReason: String?
    var distance: Double
    var elapsed: Double
    var moving: Double
    var paused: Double
    var averagePace: Double?
    var fixesAccepted: Int
    var fixesRejected: Int
    /// gps, footpod or treadmill.
    var distanceSource: String

    init(_ session: StoredSession) {
        id = session.id
        state = session.state
        activity = session.activity
        startedAt = Self.iso(session.startedAt)
        startAnchor = session.startAnchor
        endedAt = session.endedAt.map(Self.iso)
        endReason = session.endReason
        distance = session.distance
        elapsed = session.elapsed
        moving = session.moving
        paused = session.paused
        averagePace = session.averagePace
        fixesAccepted = session.fixesAccepted
        fixesRejected = session.fixesRejected
        distanceSource = session.distanceSource
    }

    static func iso(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds).formatted(.iso8601)
    }

    enum CodingKeys: String, CodingKey {
        case id, state, activity
        case startedAt = "started_at"
        case startAnchor = "start_anchor"
        case endedAt = "ended_at"
        case endReason = "end_reason"
        case distance = "distance_m"
        case elapsed = "elapsed_s"
        case moving = "moving_s"
        case paused = "paused_s"
        case averagePace = "avg_pace_s_per_km"
        case fixesAccepted = "fixes_accepted"
        case fixesRejected = "fixes_rejected"
        case distanceSource = "distance_source"
    }
}

/// `show --json`: the session, its extra figures, splits and events.
struct SessionDetailJSON: Encodable {
    struct SplitJSON: Encodable {
        var index: Int
        var distance_m: Double
        var duration_s: Double
        var end_timer_s: Double
        var avg_hr: Double?
    }

    struct EventJSON: Encodable {
        var seq: Int
        var kind: String
        var time: String?
        var detail: JSONFragment
    }

    var session: SessionJSON
    var summary: JSONFragment?
    var fixes: Int
    var splits: [SplitJSON]
    var events: [EventJSON]
    var heartRateSamples: Int
    /// Only with `--beats`.
    var beats: [BeatJSON]?

    init(_ detail: SessionDetail) {
        heartRateSamples = detail.beatCount
        session = SessionJSON(detail.session)
        summary = detail.session.summaryJSON.map(JSONFragment.init)
        fixes = detail.fixCount
        splits = detail.splits.map {
            SplitJSON(
                index: $0.index,
                distance_m: $0.distance,
                duration_s: $0.duration,
                end_timer_s: $0.endTimer,
                avg_hr: $0.averageHeartRate
            )
        }
        events = detail.events.map {
            EventJSON(
                seq: $0.seq,
                kind: $0.kind,
                time: $0.time.map(SessionJSON.iso),
                detail: JSONFragment($0.detailJSON)
            )
        }
    }

    func encode(to encoder: Encoder) throws {
        try session.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encodeIfPresent(summary, forKey: .summary)
        try container.encode(fixes, forKey: .fixes)
        try container.encode(splits, forKey: .splits)
        try container.encode(events, forKey: .events)
        try container.encode(heartRateSamples, forKey: .heartRateSamples)
        try container.encodeIfPresent(beats, forKey: .beats)
    }

    enum Keys: String, CodingKey {
        case summary, fixes, splits, events, beats
        case heartRateSamples = "heart_rate_samples"
    }
}

/// One heart-rate row in `show --json --beats`.
struct BeatJSON: Encodable {
    var seq: Int
    var received: Double?
    var time: String?
    var bpm: Int
    var contact: String?
    var energy_kj: Int?
    var rr_1024: [UInt16]
    var payload: String

    init(_ beat: StoredBeat) {
        payload = Hex.encode(beat.payload)
        seq = beat.seq
        received = beat.received
        time = beat.time.map(SessionJSON.iso)
        bpm = beat.bpm
        contact = beat.contact
        energy_kj = beat.energyExpended
        rr_1024 = beat.rrIntervals
    }
}

/// JSON already stored as text, embedded as JSON rather than as a string.
enum JSONFragment: Codable {
    case number(Double)
    case text(String)
    case bool(Bool)
    case array([JSONFragment])
    case object([String: JSONFragment])
    case null

    init(_ text: String) {
        self = (try? JSONDecoder().decode(JSONFragment.self, from: Data(text.utf8))) ?? .text(text)
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .text(value)
        } else if let value = try? container.decode([JSONFragment].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONFragment].self))
        }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let value): try container.encode(value)
        case .text(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}

enum JSONLine {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
