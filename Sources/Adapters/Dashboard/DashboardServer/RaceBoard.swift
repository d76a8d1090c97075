import DashboardCore
import Foundation
import PhoneLinkContract
import PhoneLinkWire
import PhoneRaceCore
import PhoneServer
import RaceCore
import RaceStore

/// The race panel of one page: RaceCore's tracker, fed as the wearable's own is (the wearable's
/// figures at each snapshot, the partner's newest snapshot and events from the relay), so the gap
/// and the leader on the page follow the rules the wearer hears. A page that opens mid-race knows
/// the wearable's figures from then on: until it has seen older ones, the gap at the partner's
/// elapsed time is taken from the newest.
struct RaceBoard {
    private var run: String?
    private var tracker: RaceTracker?
    private var ownSeq = 0
    private var partnerVersion = -1
    private var fed: Set<String> = []
    private var eventSeq: Int64 = 0
    private var partnerNewest: RaceStore.PartnerItem?
    private var events: [RaceBody.Event] = []

    /// The panel at `now` (wall seconds, the server's clock); nil without a race.
    mutating func race(inbox: Inbox, wearable: String, own: SnapshotRecord?, now: Double) throws -> RaceBody? {
        let races = try RaceStore(inbox).relayRaces().filter { $0.wearable == wearable }
        let ownSession = own.flatMap { $0.snapshot.session.isEmpty ? nil : uuidText($0.snapshot.session) }
        // The race the wearable is running, else the newest one it was entered in.
        guard let race = races.last(where: { $0.session != nil && $0.session == ownSession }) ?? races.last else {
            return nil
        }
        if race.run != run { self = RaceBoard(run: race.run, partner: race.partner) }
        guard var tracker else { return nil }
        if let own, own.seq != ownSeq, race.session != nil, race.session == ownSession,
            let progress = Self.progress(own.snapshot, race: race)
        {
            ownSeq = own.seq
            // Time since the common start as the wearable counts it: its GPS time against the agreed
            // instant (the session's whole seconds only when it has no GPS time).
            let gpsTime = Double(own.snapshot.gpsTimeMs) / 1000
            _ = tracker.own(
                elapsedSeconds: gpsTime > 0 ? gpsTime - race.startAt : Double(own.snapshot.elapsedS),
                distanceMetres: progress,
                now: now
            )
        }
        if RaceStore(inbox).partnerChanges != partnerVersion {
            partnerVersion = RaceStore(inbox).partnerChanges
            try feedPartner(RaceStore(inbox).partnerItems(run: race.run), race: race, into: &tracker)
        }
        _ = tracker.tick(now: now)
        self.tracker = tracker
        let status = tracker.status(now: now)
        let ownFigures = own.flatMap { record in
            race.session != nil && race.session == ownSession ? record.snapshot : nil
        }
        return RaceBody(
            run: race.run,
            partner: race.partner,
            relayState: race.state,
            startAtMs: Int64((race.startAt * 1000).rounded()),
            startsInS: (race.startAt - now).rounded(),
            distanceM: race.distance,
            activity: race.activity,
            session: race.session,
            partnerState: status.state,
            partnerLink: status.link,
            partnerDistanceM: status.distanceMetres.map { ($0 * 10).rounded() / 10 },
            partnerElapsedS: partnerNewest.map { Self.elapsed($0, race: race) },
            partnerAgeS: status.ageSeconds.map { (max(0, $0) * 10).rounded() / 10 },
            ownDistanceM: ownFigures.flatMap { Self.progress($0, race: race) }.map { ($0 * 10).rounded() / 10 },
            ownElapsedS: ownFigures.map { Int($0.elapsedS) },
            gapM: status.gapMetres.map { ($0 * 10).rounded() / 10 },
            gapS: status.gapSeconds.map { $0.rounded() },
            leader: status.leader.map { $0 == "me" ? .me : .partner },
            course: race.course,
            events: Array(events.suffix(12))
        )
    }

    private init(run: String, partner: String) {
        self.run = run
        tracker = RaceTracker(partner: partner)
    }

    init() {}

    /// New partner items, in the order they happened, each once: the newest snapshot and the events.
    private mutating func feedPartner(
        _ items: [RaceStore.PartnerItem],
        race: RaceStore.RelayRace,
        into tracker: inout RaceTracker
    ) {
        for item in items.sorted(by: { ($0.at, $0.key) < ($1.at, $1.key) }) {
            guard fed.insert("\(item.source.rawValue):\(item.key)").inserted else { continue }
            if item.source == .message, item.messageClass == .snapshot {
                partnerNewest = item
                _ = tracker.partner(
                    PartnerSnapshot(
                        sequence: item.key,
                        distanceMetres: (race.course == nil ? nil : item.course) ?? item.distance ?? 0,
                        elapsedSeconds: Self.elapsed(item, race: race),
                        paused: item.paused,
                        receivedAt: item.at
                    )
                )
                continue
            }
            events.append(
                RaceBody.Event(
                    source: item.source,
                    kind: item.kind,
                    runner: item.runner,
                    atMs: Int64((item.at * 1000).rounded())
                )
            )
            guard item.runner == race.partner, let event = Self.event(item) else { continue }
            eventSeq += 1
            _ = tracker.partner(event: event, sequence: eventSeq)
        }
    }

    /// The wearable's progress in `race` as the wearable judges it: on a course, the course's length
    /// less its distance to go (nil until the snapshot says where it is on the course); else the
    /// distance run.
    static func progress(_ snapshot: Wearbridge_Link_V1_Snapshot, race: RaceStore.RelayRace) -> Double? {
        guard let length = race.courseLength else { return Double(snapshot.distanceDm) / 10 }
        guard snapshot.hasCourse else { return nil }
        return RaceStore.along(snapshot.course, length: length)
    }

    /// The partner's time since the common start: their GPS time against the agreed instant when
    /// they sent it, else their session's elapsed time.
    static func elapsed(_ item: RaceStore.PartnerItem, race: RaceStore.RelayRace) -> Double {
        if let gpsTime = (RaceStore.details(item.body)["gps_time"] as? NSNumber)?.doubleValue {
            return max(0, gpsTime - race.startAt)
        }
        return item.elapsed ?? 0
    }

    /// A stored relay item as the partner's event, as the phone passes it to the wearable.
    static func event(_ item: RaceStore.PartnerItem) -> PartnerEvent? {
        let details = RaceStore.details(item.body)
        switch PartnerNews(source: item.source, kind: item.kind) {
        case .paused: return .paused
        case .resumed: return .resumed
        case .split:
            return .split(
                number: (details["index"] as? NSNumber)?.intValue ?? 0,
                seconds: (details["duration_s"] as? NSNumber)?.doubleValue ?? 0
            )
        case .finished:
            return .finished(elapsedSeconds: item.elapsed ?? 0, distanceMetres: item.distance ?? 0)
        case .abandoned: return .abandoned
        case nil: return nil
        }
    }
}
