import PhoneLinkMessages

/// One inbox message as the page reads it (`Message`): its seq, kind and typed fields as numbers
/// (never the protobuf JSON mapping, which writes 64-bit integers as strings).
struct MessageBody: StampedBody {
    static let schema = "#/components/schemas/Message"
    static let eventSchema = "#/components/schemas/MessageEvent"

    /// What the message says beyond its kind, by kind; `nil` for a kind with nothing more.
    enum Detail: Sendable, Equatable {
        case started(activity: String, startedAtMs: Int64, commandID: String?)
        case paused(auto: Bool, distanceM: Double, elapsedS: Int)
        case resumed(auto: Bool, distanceM: Double, elapsedS: Int)
        case ended(Ended)
        case split(index: Int, distanceM: Double, durationS: Double, avgHeartRate: Int?)
        case reply(commandID: String, ok: Bool, reason: String?, message: String, state: SnapshotBody.State)
        case notice(detail: String, batteryPercent: Int?)
        case raceStarted(run: String, startOffsetMs: Int64, clock: String)
    }

    /// A session's end as the wearable reported it.
    struct Ended: Sendable, Equatable {
        var reason: String
        var distanceM: Double
        var elapsedS: Double
        var movingS: Double
        var pausedS: Double
        var splits: Int
        var avgHeartRate: Int?
        var maxHeartRate: Int?
        var energyKcal: Double?
        var elevationGainM: Double?
        var elevationLossM: Double?
        var steps: Int?
    }

    var seq: Int
    var kind: MessageKind
    var session: String?
    var receivedAtMs: Int64
    var createdAtMs: Int64
    var detail: Detail?

    private enum CodingKeys: String, CodingKey {
        case seq, kind, session, receivedAtMs, createdAtMs
        case activity, startedAtMs, commandID, auto, distanceM, elapsedS, movingS, pausedS, reason, splits
        case avgHeartRate, maxHeartRate, index, durationS, ok, message, state, detail, batteryPercent
        case run, startOffsetMs, clock
        case energyKcal, elevationGainM, elevationLossM, steps
    }

    /// Flat, as the page reads it: the kind's fields beside the common ones; a missing reading
    /// (no heart rate, no command) is null.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seq, forKey: .seq)
        try container.encode(kind, forKey: .kind)
        try container.encode(Nullable(wrappedValue: session), forKey: .session)
        try container.encode(receivedAtMs, forKey: .receivedAtMs)
        try container.encode(createdAtMs, forKey: .createdAtMs)
        switch detail {
        case .started(let activity, let startedAtMs, let commandID):
            try container.encode(activity, forKey: .activity)
            try container.encode(startedAtMs, forKey: .startedAtMs)
            try container.encode(Nullable(wrappedValue: commandID), forKey: .commandID)
        case .paused(let auto, let distanceM, let elapsedS), .resumed(let auto, let distanceM, let elapsedS):
            try container.encode(auto, forKey: .auto)
            try container.encode(distanceM, forKey: .distanceM)
            try container.encode(elapsedS, forKey: .elapsedS)
        case .ended(let ended):
            try container.encode(ended.reason, forKey: .reason)
            try container.encode(ended.distanceM, forKey: .distanceM)
            try container.encode(ended.elapsedS, forKey: .elapsedS)
            try container.encode(ended.movingS, forKey: .movingS)
            try container.encode(ended.pausedS, forKey: .pausedS)
            try container.encode(ended.splits, forKey: .splits)
            try container.encode(Nullable(wrappedValue: ended.avgHeartRate), forKey: .avgHeartRate)
            try container.encode(Nullable(wrappedValue: ended.maxHeartRate), forKey: .maxHeartRate)
            try container.encode(Nullable(wrappedValue: ended.energyKcal), forKey: .energyKcal)
            try container.encode(Nullable(wrappedValue: ended.elevationGainM), forKey: .elevationGainM)
            try container.encode(Nullable(wrappedValue: ended.elevationLossM), forKey: .elevationLossM)
            try container.encode(Nullable(wrappedValue: ended.steps), forKey: .steps)
        case .split(let index, let distanceM, let durationS, let avgHeartRate):
            try container.encode(index, forKey: .index)
            try container.encode(distanceM, forKey: .distanceM)
            try container.encode(durationS, forKey: .durationS)
            try container.encode(Nullable(wrappedValue: avgHeartRate), forKey: .avgHeartRate)
        case .reply(let commandID, let ok, let reason, let message, let state):
            try container.encode(commandID, forKey: .commandID)
            try container.encode(ok, forKey: .ok)
            try container.encode(Nullable(wrappedValue: reason), forKey: .reason)
            try container.encode(message, forKey: .message)
            try container.encode(state, forKey: .state)
        case .notice(let detail, let batteryPercent):
            try container.encode(detail, forKey: .detail)
            try container.encodeIfPresent(batteryPercent, forKey: .batteryPercent)
        case .raceStarted(let run, let startOffsetMs, let clock):
            try container.encode(run, forKey: .run)
            try container.encode(startOffsetMs, forKey: .startOffsetMs)
            try container.encode(clock, forKey: .clock)
        case nil:
            break
        }
    }
}
