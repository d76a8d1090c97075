import HeartRate
import HexCoding
import SessionCore
import TrackCore

/// A value in a stored event's detail (JSON in `event.detail`).
enum StoredValue: Equatable {
    case number(Double)
    case text(String)
}

extension SessionEvent {
    /// The event's name in the data log: the `kind` column, as `show` prints it. These names are
    /// the on-disk format; they never change.
    public var storedKind: String {
        switch self {
        case .started: "session_started"
        case .paused: "paused"
        case .resumed: "resumed"
        case .ended(.command): "session_ended"
        case .ended(.abandoned): "session_abandoned"
        case .recovered: "session_recovered"
        case .restartGap: "restart_gap"
        case .track(.autoPaused): "auto_paused"
        case .track(.autoResumed): "auto_resumed"
        case .track(.split): "split"
        case .track(.gpsLost): "gps_lost"
        case .track(.gpsRegained): "gps_regained"
        case .track(.gapBridged): "gap_bridged"
        case .track(.timelineReset): "timeline_reset"
        case .track(.filterReset): "filter_reset"
        case .gpsdConnected: "gpsd_connected"
        case .gpsdDisconnected: "gpsd_disconnected"
        case .deviceAdded: "device_added"
        case .deviceRemoved: "device_removed"
        case .strap(.found): "strap_found"
        case .strap(.lost): "strap_lost"
        case .strap(.regained): "strap_regained"
        case .strap(.contactLost): "contact_lost"
        case .strap(.contactRegained): "contact_regained"
        case .strap(.battery): "strap_battery"
        case .strapLocation: "strap_location"
        case .malformedBeat: "hrm_malformed"
        case .speedSensor(.connected(let source, _)): "\(source.rawValue)_connected"
        case .speedSensor(.lost(let source, _)): "\(source.rawValue)_lost"
        case .speedSensor(.malformed(let source, _, _)): "\(source.rawValue)_malformed"
        case .speedSensor(.machineStatus): "treadmill_status"
        case .storageFailed(let failure): failure.kind == .full ? "storage_full" : "storage_failed"
        case .storageRecovered: "storage_recovered"
        case .phoneLink: "phone_link"
        case .cue(.spoken): "cue_spoken"
        case .cue(.dropped): "cue_dropped"
        case .race(let race): race.storedKind
        case .course(.following): "course_following"
        case .course(.offCourse): "off_course"
        case .course(.backOnCourse): "back_on_course"
        case .course(.turnAhead): "turn_ahead"
        case .course(.finished): "course_finished"
        }
    }

    /// What the event says beyond its kind: the `detail` column's JSON object.
    var storedDetail: [String: StoredValue] {
        switch self {
        case .started(let anchor):
            ["anchor": .text(anchor.source.rawValue), "started_at": .number(anchor.seconds)]
        case .recovered(let distance, let lastFix):
            lastFix.map { ["distance_m": .number(distance), "last_fix": .number($0.seconds)] }
                ?? ["distance_m": .number(distance)]
        case .restartGap(let down):
            ["down_s": .number(down)]
        case .track(.autoResumed(_, let pausedFor)):
            ["paused_s": .number(pausedFor)]
        case .track(.split(let split)):
            [
                "index": .number(Double(split.index)), "distance_m": .number(split.distance),
                "duration_s": .number(split.duration), "end_timer_s": .number(split.endTimer),
            ].merging(split.averageHeartRate.map { ["avg_hr": .number($0)] } ?? [:]) { first, _ in first }
        case .track(.gpsRegained(_, let after)):
            ["after_s": .number(after)]
        case .track(.gapBridged(let from, let to, let distance)):
            ["from": .number(from.seconds), "duration_s": .number(to.since(from)), "distance_m": .number(distance)]
        case .deviceAdded(let path), .deviceRemoved(let path):
            ["path": .text(path)]
        case .strap(.found(let address)):
            ["address": .text(address)]
        case .strap(.lost(let reason)):
            ["reason": .text(reason)]
        case .strap(.regained(let after)):
            ["after_s": .number(after)]
        case .strap(.battery(let level)):
            ["percent": .number(Double(level))]
        case .strapLocation(let location):
            ["location": .text(location)]
        case .malformedBeat(let payload, let reason):
            ["payload": .text(Hex.encode(payload)), "reason": .text(reason)]
        case .speedSensor(.connected(_, let address)):
            ["address": .text(address)]
        case .speedSensor(.lost(_, let reason)):
            ["reason": .text(reason)]
        case .speedSensor(.malformed(_, let payload, let reason)):
            ["payload": .text(Hex.encode(payload)), "reason": .text(reason)]
        case .speedSensor(.machineStatus(let status)):
            ["status": .text(status)]
        case .phoneLink(let state):
            ["state": .text(state.rawValue)]
        case .cue(.spoken(let kind, let text, let delay, let synthesis, let audio, let underruns, let playing)):
            [
                "cue": .text(kind), "text": .text(text), "delay_s": .number(delay),
                "synthesis_s": .number(synthesis), "audio_s": .number(audio),
                "audio_underruns": .number(Double(underruns)), "play_s": .number(playing),
            ]
        case .cue(.dropped(let kind, let text, let reason)):
            ["cue": .text(kind), "text": .text(text), "reason": .text(reason)]
        case .storageFailed(let failure):
            ["reason": .text(failure.message), "cause": .text(failure.kind.rawValue)]
        case .storageRecovered(let after, let dropped):
            [
                "after_s": .number(after), "fixes_dropped": .number(Double(dropped.fixes)),
                "beats_dropped": .number(Double(dropped.beats)), "events_dropped": .number(Double(dropped.events)),
            ]
        case .race(let race):
            race.storedDetail
        case .course(.following(let name, let length)):
            ["course": .text(name), "length_m": .number(length)]
        case .course(.offCourse(let away)):
            ["away_m": .number(away)]
        case .course(.backOnCourse(let along)):
            ["along_m": .number(along)]
        case .course(.turnAhead(let direction, let metres)):
            ["direction": .text(direction.rawValue), "in_m": .number(metres)]
        case .course(.finished(let name)):
            ["course": .text(name)]
        case .paused, .resumed, .ended, .track(.autoPaused), .track(.gpsLost), .track(.timelineReset),
            .track(.filterReset), .gpsdConnected, .gpsdDisconnected, .strap(.contactLost), .strap(.contactRegained):
            [:]
        }
    }
}

extension SessionEvent {
    /// The detail as text, for a log line: numbers as numbers, text as is.
    public var storedDetailText: [String: String] {
        storedDetail.mapValues { value in
            switch value {
            case .number(let number):
                number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
            case .text(let text): text
            }
        }
    }
}

extension SensorContact {
    /// The `contact` column of `heart_rate`.
    var storedName: String {
        switch self {
        case .notSupported: "not_supported"
        case .notDetected: "not_detected"
        case .detected: "detected"
        }
    }

    init(storedName: String?) {
        switch storedName {
        case "detected": self = .detected
        case "not_detected": self = .notDetected
        default: self = .notSupported
        }
    }
}
