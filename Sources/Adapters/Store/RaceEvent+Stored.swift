import RaceCore
import SessionCore

extension RaceEvent {
    /// The event's name in the data log (`kind`): the on-disk format, never changed.
    var storedKind: String {
        switch self {
        case .armed: "race_armed"
        case .disarmed: "race_disarmed"
        case .countdown: "race_countdown"
        case .started: "race_started"
        case .followed: "race_followed"
        case .partner: "partner_event"
        case .news(.leadTaken): "race_lead_taken"
        case .news(.leadLost): "race_lead_lost"
        case .news(.partnerPaused): "partner_paused"
        case .news(.partnerResumed): "partner_resumed"
        case .news(.partnerSplit): "partner_split"
        case .news(.partnerFinished): "partner_finished"
        case .news(.partnerAbandoned): "partner_abandoned"
        case .news(.partnerLost): "partner_lost"
        case .news(.partnerBack): "partner_back"
        }
    }

    /// The `detail` column's JSON object.
    var storedDetail: [String: StoredValue] {
        switch self {
        case .armed(let run, let partner, let startsIn, let clock):
            [
                "run": .text(run), "partner": .text(partner), "starts_in_s": .number(startsIn),
                "clock": .text(clock.rawValue),
            ]
        case .disarmed(let run, let reason):
            ["run": .text(run), "reason": .text(reason)]
        case .countdown(.startingIn(let seconds)):
            ["seconds": .number(Double(seconds))]
        case .countdown(.go(let late)):
            ["go": .number(1), "late_s": .number(late)]
        case .started(let run, let partner, let startAt, let offset, let clock, let course):
            [
                "run": .text(run), "partner": .text(partner), "start_at": .number(startAt),
                "start_offset_ms": .number(Double(offset)), "clock": .text(clock.rawValue),
            ].merging(course.map { ["course": .text($0)] } ?? [:]) { first, _ in first }
        case .followed(let run, let partner):
            ["run": .text(run), "partner": .text(partner)]
        case .partner(let event, let sequence):
            ["seq": .number(Double(sequence))].merging(event.storedDetail) { first, _ in first }
        case .news(.leadTaken(let gap)), .news(.leadLost(let gap)):
            ["gap_m": .number(gap)]
        case .news(.partnerSplit(let number, let seconds)):
            ["index": .number(Double(number)), "duration_s": .number(seconds)]
        case .news(.partnerFinished(let elapsed, let distance)):
            ["elapsed_s": .number(elapsed), "distance_m": .number(distance)]
        case .news(.partnerPaused), .news(.partnerResumed), .news(.partnerAbandoned), .news(.partnerLost),
            .news(.partnerBack):
            [:]
        }
    }
}

extension PartnerEvent {
    /// The partner event's name and figures as the data log keeps them.
    var storedDetail: [String: StoredValue] {
        switch self {
        case .paused: ["what": .text("paused")]
        case .resumed: ["what": .text("resumed")]
        case .split(let number, let seconds):
            ["what": .text("split"), "index": .number(Double(number)), "duration_s": .number(seconds)]
        case .finished(let elapsed, let distance):
            ["what": .text("finished"), "elapsed_s": .number(elapsed), "distance_m": .number(distance)]
        case .abandoned: ["what": .text("abandoned")]
        }
    }
}
