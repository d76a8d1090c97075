import DashboardCore
import Foundation
import PhoneLinkContract
import PhoneLinkMessages
import PhoneLinkWire
import PhoneServer

/// The live page's JSON: the link strip, the newest snapshot and the strap, from the inbox's rows
/// and the server's clock (`now`, wall seconds), so every age is the server's.
enum LiveJSON {
    /// The link strip's object for `record`'s wearable, with the newest snapshot it was judged
    /// with (paused or not) and the inbox's mark, read here once for the caller to reuse.
    static func link(
        _ record: LinkRecord?,
        wearable: String,
        inbox: Inbox,
        now: Double,
        limits: LinkLimits
    )
        throws -> (body: LinkBody, snapshot: SnapshotRecord?)
    {
        let snapshot = try inbox.link.snapshot(wearable: wearable)
        let mark = try record?.epoch.map { try inbox.link.mark(wearable: wearable, epoch: $0).mark } ?? 0
        let paused = snapshot.map { $0.snapshot.state == .paused || $0.snapshot.state == .autoPaused } ?? false
        let strip = limits.strip(record, paused: paused, now: now)
        let newest = max(mark, snapshot?.seq ?? 0)
        let body = LinkBody(
            state: strip.state,
            lastSeenAgeS: strip.lastSeenAge.map { ($0 * 10).rounded() / 10 },
            commandsRefusedBecause: strip.commandsRefusedBecause,
            outboxDepth: max(0, (record?.helloHead ?? 0) - newest),
            highWater: mark,
            serverTimeMs: Int64((now * 1000).rounded())
        )
        return (body, snapshot)
    }

    static func snapshot(_ record: SnapshotRecord, now: Double) -> SnapshotBody {
        let snapshot = record.snapshot
        return SnapshotBody(
            seq: record.seq,
            ageS: (max(0, now - record.receivedAt) * 10).rounded() / 10,
            receivedAtMs: Int64((record.receivedAt * 1000).rounded()),
            session: snapshot.session.isEmpty ? nil : uuidText(snapshot.session),
            state: state(snapshot.state),
            distanceM: Double(snapshot.distanceDm) / 10,
            elapsedS: Int(snapshot.elapsedS),
            movingS: Int(snapshot.movingS),
            paceSPerKm: snapshot.paceSPerKm == 0 ? nil : Int(snapshot.paceSPerKm),
            avgPaceSPerKm: snapshot.avgPaceSPerKm == 0 ? nil : Int(snapshot.avgPaceSPerKm),
            heartRate: snapshot.heartRate == 0 ? nil : Int(snapshot.heartRate),
            zone: snapshot.zone == 0 ? nil : Int(snapshot.zone),
            zoneFloorsBpm: snapshot.zoneFloorsBpm.map { Int($0) },
            gps: gps(snapshot.gps),
            strapLost: snapshot.strapLost,
            energyKcal: snapshot.energyKcal == 0 ? nil : Int(snapshot.energyKcal),
            climbedM: snapshot.climbedM == 0 ? nil : Int(snapshot.climbedM),
            steps: snapshot.steps == 0 ? nil : Int(snapshot.steps),
            course: snapshot.hasCourse ? course(snapshot.course) : nil
        )
    }

    static func course(_ course: Wearbridge_Link_V1_CourseFigures) -> SnapshotBody.Course {
        let state =
            LinkSnapshot.Course.State(wire: course.state)
            .flatMap { SnapshotBody.Course.State(rawValue: $0.rawValue) } ?? .unknown
        return SnapshotBody.Course(
            toGoM: Double(course.toGoDm) / 10,
            awayM: state == .notStarted ? nil : Int(course.awayM),
            state: state,
            toGoS: course.toGoS == 0 ? nil : Int(course.toGoS)
        )
    }

    static func state(_ state: Wearbridge_Link_V1_SessionState) -> SnapshotBody.State {
        switch state {
        case .idle: .idle
        case .starting: .starting
        case .active: .active
        case .paused: .paused
        case .autoPaused: .autoPaused
        case .ending: .ending
        default: .unknown
        }
    }

    static func gps(_ quality: Wearbridge_Link_V1_GpsQuality) -> SnapshotBody.GPS {
        switch quality {
        case .none: .none
        case .lost: .lost
        case .poor: .poor
        case .good: .good
        default: .unknown
        }
    }
}

/// When a link is stale (the phone's `[commands] stale_after`; lost after
/// `PhoneLinkState.lostAfterStale` times it).
struct LinkLimits: Sendable {
    var staleAfter: Double

    /// The strip for a link row at `now` (the server's wall clock, as `last_seen` is).
    func strip(_ record: LinkRecord?, paused: Bool, now: Double) -> LinkStrip {
        LinkStrip(
            connected: record?.connected ?? false,
            lastSeenAge: record.map { max(0, now - $0.lastSeen) },
            paused: paused,
            staleAfter: staleAfter
        )
    }
}
