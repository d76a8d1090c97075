import Foundation
import HexCoding
import PhoneLinkContract
import PhoneLinkMessages
import SessionCore
import TrackCore

extension LinkMessage {
    /// The message as the wire (and the outbox's `payload` column) carries it.
    public var payload: Wearbridge_Link_V1_Payload {
        var payload = Wearbridge_Link_V1_Payload()
        switch self {
        case .snapshot(let snapshot):
            payload.snapshot = snapshot.wire
        case .started(let id, let activity, let anchor, let source):
            payload.sessionStarted = .with {
                $0.session = id
                $0.activity = activity.rawValue
                $0.startedAtMs = Int64((anchor.seconds * 1000).rounded())
                $0.distanceSource = source.rawValue
            }
        case .paused(let id, let auto, let distance, let elapsed):
            payload.sessionPaused = .with {
                $0.session = id
                $0.auto = auto
                $0.distanceDm = decimetres(distance)
                $0.elapsedS = seconds(elapsed)
            }
        case .resumed(let id, let auto, let distance, let elapsed):
            payload.sessionResumed = .with {
                $0.session = id
                $0.auto = auto
                $0.distanceDm = decimetres(distance)
                $0.elapsedS = seconds(elapsed)
            }
        case .ended(let id, let reason, let summary, let endedAt, let course):
            payload.sessionEnded = .with {
                $0.session = id
                $0.reason = reason.rawValue
                $0.distanceM = summary.distance
                $0.elapsedS = summary.elapsed
                $0.movingS = summary.moving
                $0.pausedS = summary.paused
                $0.splits = UInt32(summary.splits.count)
                $0.avgHeartRate = UInt32((summary.heartRate?.average ?? 0).rounded())
                $0.maxHeartRate = UInt32(summary.heartRate?.maximum ?? 0)
                $0.endedAtMs = endedAt.map { Int64(($0.seconds * 1000).rounded()) } ?? 0
                $0.energyKcal = summary.energy?.kilocalories ?? 0
                $0.elevationGainM = summary.elevation?.gain ?? 0
                $0.elevationLossM = summary.elevation?.loss ?? 0
                $0.steps = UInt32(clamping: summary.steps ?? 0)
                if let course { $0.course = course.wire }
            }
        case .split(let id, let split):
            payload.split = .with {
                $0.session = id
                $0.index = UInt32(split.index)
                $0.distanceM = split.distance
                $0.durationS = split.duration
            }
        case .commandReply(let reply):
            payload.commandReply = reply.wire
        case .notice(let id, let notice):
            payload.notice = .with {
                $0.session = id ?? ""
                $0.kind = notice.kind.wire
                $0.detail = notice.detail
                $0.batteryPercent = UInt32(clamping: notice.batteryPercent ?? 0)
            }
        case .raceStarted(let id, let run, let offset, let clock):
            payload.raceStarted = .with {
                $0.session = id
                $0.run = run
                $0.startOffsetMs = Int64(offset)
                $0.clock = clock
            }
        }
        return payload
    }
}

extension LinkMessage.Class {
    public var wire: Wearbridge_Link_V1_MessageClass {
        switch self {
        case .critical: .critical
        case .snapshot: .snapshot
        case .notice: .notice
        }
    }

    public init?(wire: Wearbridge_Link_V1_MessageClass) {
        switch wire {
        case .critical: self = .critical
        case .snapshot: self = .snapshot
        case .notice: self = .notice
        default: return nil
        }
    }
}

extension LinkSnapshot {
    var wire: Wearbridge_Link_V1_Snapshot {
        .with {
            $0.session = sessionID.flatMap(uuidBytes) ?? Data()
            $0.state = state.wire
            $0.distanceDm = decimetres(distance)
            $0.elapsedS = seconds(elapsed)
            $0.movingS = seconds(moving)
            $0.paceSPerKm = pace.map(seconds) ?? 0
            $0.avgPaceSPerKm = averagePace.map(seconds) ?? 0
            $0.heartRate = UInt32(clamping: heartRate ?? 0)
            $0.zone = UInt32(clamping: zone ?? 0)
            $0.gps = gps.wire
            $0.strapLost = strapLost
            $0.gpsTimeMs = gpsTime.map { $0.isFinite ? Int64(($0 * 1000).rounded()) : 0 } ?? 0
            $0.zoneFloorsBpm = zoneFloors.map { UInt32(clamping: $0) }
            $0.energyKcal = energy.map { $0.isFinite ? UInt32(clamping: Int($0.rounded())) : 0 } ?? 0
            $0.climbedM = climbed.map { $0.isFinite ? UInt32(clamping: Int($0.rounded())) : 0 } ?? 0
            $0.steps = UInt32(clamping: steps ?? 0)
            if let course { $0.course = course.wire }
        }
    }
}

extension LinkSnapshot.Course {
    var wire: Wearbridge_Link_V1_CourseFigures {
        .with {
            $0.toGoDm = toGo.isFinite ? UInt32(clamping: Int64((max(toGo, 0) * 10).rounded())) : 0
            $0.awayM = away.map { $0.isFinite ? UInt32(clamping: Int64(max($0, 0).rounded())) : 0 } ?? 0
            $0.state = state.wire
            $0.toGoS = secondsToGo.map { $0.isFinite ? UInt32(clamping: Int64(max($0, 0).rounded())) : 0 } ?? 0
        }
    }
}

extension LinkSnapshot.Course.State {
    var wire: Wearbridge_Link_V1_CourseState {
        switch self {
        case .notStarted: .notStarted
        case .onCourse: .onCourse
        case .leaving: .leaving
        case .offCourse: .offCourse
        case .rejoining: .rejoining
        case .finished: .finished
        }
    }

    /// The wire's state; nil for one this program does not know (a newer wearable's).
    public init?(wire: Wearbridge_Link_V1_CourseState) {
        guard let known = Self.allCases.first(where: { $0.wire == wire }) else { return nil }
        self = known
    }
}

extension LinkSnapshot.GPSQuality {
    var wire: Wearbridge_Link_V1_GpsQuality {
        switch self {
        case .none: .none
        case .lost: .lost
        case .poor: .poor
        case .good: .good
        }
    }
}

extension LinkNotice.Kind {
    var wire: Wearbridge_Link_V1_Notice.Kind {
        switch self {
        case .gpsLost: .gpsLost
        case .gpsRegained: .gpsRegained
        case .strapLost: .strapLost
        case .strapRegained: .strapRegained
        case .strapBattery: .strapBattery
        case .storageRecovered: .storageRecovered
        }
    }
}

extension SessionLifecycle.State {
    public var wire: Wearbridge_Link_V1_SessionState {
        switch self {
        case .idle: .idle
        case .starting: .starting
        case .active: .active
        case .paused(.command): .paused
        case .paused(.auto): .autoPaused
        case .ending: .ending
        }
    }
}

extension CommandReply {
    public var wire: Wearbridge_Link_V1_CommandReply {
        .with {
            $0.commandID = commandID
            $0.kind = command.wire
            $0.ok = accepted
            $0.reason = accepted ? .unspecified : (refusal ?? .unknown).wire
            $0.message = message
            $0.session = sessionID ?? ""
            $0.state = state.wire
        }
    }
}

extension SessionCommand {
    public var wire: Wearbridge_Link_V1_CommandKind {
        switch self {
        case .start: .start
        case .pause: .pause
        case .resume: .resume
        case .end: .end
        case .race: .race
        case .cancelRace: .raceCancel
        case .partnerEvent: .partnerEvent
        case .course: .course
        case .removeCourse: .courseRemove
        // Never sent to the phone: a local command.
        case .calibrate: .unspecified
        }
    }

    public init?(wire: Wearbridge_Link_V1_CommandKind) {
        switch wire {
        case .start: self = .start
        case .pause: self = .pause
        case .resume: self = .resume
        case .end: self = .end
        case .race: self = .race
        case .raceCancel: self = .cancelRace
        case .partnerEvent: self = .partnerEvent
        case .course: self = .course
        case .courseRemove: self = .removeCourse
        default: return nil
        }
    }
}

extension RefusalCode {
    public var wire: Wearbridge_Link_V1_FailReason {
        switch self {
        case .alreadyActive: .alreadyActive
        case .notActive: .notActive
        case .alreadyPaused: .alreadyPaused
        case .notPaused: .notPaused
        case .expired: .expired
        case .invalid: .invalid
        case .busy: .busy
        case .unknown: .unknown
        case .notReady: .notReady
        }
    }

    public init?(wire: Wearbridge_Link_V1_FailReason) {
        guard let code = RefusalCode.allCases.first(where: { $0.wire == wire }) else { return nil }
        self = code
    }
}

/// A UUID's text as its 16 bytes (the snapshot's compact session id); nil when it is not one.
public func uuidBytes(_ text: String) -> Data? {
    guard let bytes = try? Hex.decode(text), bytes.count == 16 else { return nil }
    return Data(bytes)
}

/// 16 bytes as a UUID's text; nil for any other length.
public func uuidText(_ bytes: Data) -> String? {
    guard bytes.count == 16 else { return nil }
    return SessionIDGenerator.text(of: [UInt8](bytes))
}

private func decimetres(_ metres: Double) -> UInt32 {
    metres.isFinite ? UInt32(clamping: Int((metres * 10).rounded())) : 0
}

private func seconds(_ value: Double) -> UInt32 {
    value.isFinite ? UInt32(clamping: Int(value.rounded())) : 0
}
