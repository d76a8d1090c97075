import DashboardCore
import PhoneLinkContract
import PhoneServer

/// One inbox message as the page reads it: its seq, kind and typed fields as numbers (never the
/// protobuf JSON mapping, which writes 64-bit integers as strings).
enum MessageJSON {
    static func body(_ message: InboxMessage) -> MessageBody {
        MessageBody(
            seq: message.seq,
            kind: message.kind,
            session: message.session,
            receivedAtMs: Int64((message.receivedAt * 1000).rounded()),
            createdAtMs: message.createdAtMs,
            detail: (try? Wearbridge_Link_V1_Payload(serializedBytes: message.payload)).flatMap(detail)
        )
    }

    static func detail(_ payload: Wearbridge_Link_V1_Payload) -> MessageBody.Detail? {
        switch payload.kind {
        case .sessionStarted(let started):
            .started(
                activity: started.activity,
                startedAtMs: started.startedAtMs,
                commandID: started.commandID.isEmpty ? nil : started.commandID
            )
        case .sessionPaused(let paused):
            .paused(auto: paused.auto, distanceM: Double(paused.distanceDm) / 10, elapsedS: Int(paused.elapsedS))
        case .sessionResumed(let resumed):
            .resumed(auto: resumed.auto, distanceM: Double(resumed.distanceDm) / 10, elapsedS: Int(resumed.elapsedS))
        case .sessionEnded(let ended):
            .ended(
                MessageBody.Ended(
                    reason: ended.reason,
                    distanceM: ended.distanceM,
                    elapsedS: ended.elapsedS,
                    movingS: ended.movingS,
                    pausedS: ended.pausedS,
                    splits: Int(ended.splits),
                    avgHeartRate: ended.avgHeartRate == 0 ? nil : Int(ended.avgHeartRate),
                    maxHeartRate: ended.maxHeartRate == 0 ? nil : Int(ended.maxHeartRate),
                    energyKcal: ended.energyFigure,
                    elevationGainM: ended.gainFigure,
                    elevationLossM: ended.lossFigure,
                    steps: ended.stepsFigure
                )
            )
        case .split(let split):
            .split(
                index: Int(split.index),
                distanceM: split.distanceM,
                durationS: split.durationS,
                avgHeartRate: split.avgHeartRate == 0 ? nil : Int(split.avgHeartRate)
            )
        case .commandReply(let reply):
            .reply(
                commandID: reply.commandID,
                ok: reply.ok,
                reason: reply.ok ? nil : reasonName(reply.reason),
                message: reply.message,
                state: LiveJSON.state(reply.state)
            )
        case .notice(let notice):
            .notice(
                detail: notice.detail,
                batteryPercent: notice.kind == .strapBattery ? Int(notice.batteryPercent) : nil
            )
        case .raceStarted(let race):
            .raceStarted(run: race.run, startOffsetMs: race.startOffsetMs, clock: race.clock)
        case .snapshot, nil:
            nil
        }
    }

    static func reasonName(_ reason: Wearbridge_Link_V1_FailReason) -> String {
        switch reason {
        case .alreadyActive: "already_active"
        case .notActive: "not_active"
        case .alreadyPaused: "already_paused"
        case .notPaused: "not_paused"
        case .expired: "expired"
        case .invalid: "invalid"
        case .busy: "busy"
        case .notReady: "not_ready"
        default: "unknown"
        }
    }
}

extension Wearbridge_Link_V1_SessionEnded {
    /// The end's energy (kcal) and elevation gain and loss (m) as the page shows them: tenths, and
    /// null where the wearable sent 0 (not measured).
    var energyFigure: Double? { Self.tenths(energyKcal) }
    var gainFigure: Double? { Self.tenths(elevationGainM) }
    var lossFigure: Double? { Self.tenths(elevationLossM) }
    /// The steps the wearable's IMU counted; null where none did.
    var stepsFigure: Int? { steps > 0 ? Int(steps) : nil }

    private static func tenths(_ value: Double) -> Double? { value > 0 ? (value * 10).rounded() / 10 : nil }
}
