import Foundation
import RaceCore
import Testing

/// Two runners at constant speeds from the same start: me at `mine` m/s, the partner at `theirs`,
/// the partner's snapshots arriving `delay` s late, one per second.
private struct Race {
    var tracker = RaceTracker(partner: "bob")
    var news: [(time: Double, news: RaceNews)] = []
    var sequence: Int64 = 0

    mutating func run(
        from start: Double,
        to end: Double,
        mine: (Double) -> Double,
        theirs: (Double) -> Double,
        delay: Double = 3
    ) {
        var time = start
        while time <= end {
            for item in tracker.own(elapsedSeconds: time, distanceMetres: mine(time), now: time) {
                news.append((time, item))
            }
            let theirTime = time - delay
            if theirTime >= 0 {
                sequence += 1
                let snapshot = PartnerSnapshot(
                    sequence: sequence,
                    distanceMetres: theirs(theirTime),
                    elapsedSeconds: theirTime,
                    paused: false,
                    receivedAt: time
                )
                for item in tracker.partner(snapshot) { news.append((time, item)) }
            }
            for item in tracker.tick(now: time) { news.append((time, item)) }
            time += 1
        }
    }
}

@Suite("Race tracker")
struct RaceTrackerTests {
    @Test("the gap is taken at the partner's elapsed time, not at their snapshot's arrival")
    func gapAtEqualElapsedTime() {
        var race = Race()
        // Same speed, 3 s of delay: at arrival I am 9 m further, at equal elapsed time we are level.
        race.run(from: 0, to: 60, mine: { 3 * $0 }, theirs: { 3 * $0 })
        let status = race.tracker.status(now: 60)
        #expect(abs(status.gapMetres ?? 99) < 0.001)
        #expect(race.news.isEmpty, "runners side by side are never announced: \(race.news)")
        #expect(status.link == .live)
        #expect(status.state == .running)
    }

    @Test("a lead change is announced once it holds beyond the margin, with the gap")
    func leadChangeWithHysteresis() {
        var race = Race()
        // The partner runs 3.5 m/s until 100 s, then slows to 2.5 m/s; I run 3 m/s throughout.
        let theirs: (Double) -> Double = { $0 <= 100 ? 3.5 * $0 : 350 + 2.5 * ($0 - 100) }
        race.run(from: 0, to: 400, mine: { 3 * $0 }, theirs: theirs)
        let kinds = race.news.map(\.news)
        #expect(kinds.count == 2, "\(race.news)")
        guard case .leadLost(let behind) = kinds.first, case .leadTaken(let ahead) = kinds.last else {
            Issue.record("expected lead lost then taken: \(race.news)")
            return
        }
        // The partner is 5 m ahead at 10 s of elapsed time; held 10 s, seen with 3 s of delay.
        #expect(race.news[0].time >= 23 && race.news[0].time <= 25, "\(race.news[0])")
        #expect(behind > 5)
        // Truth: level at 200 s elapsed (600 m each); beyond 5 m at 210 s; +10 s hold, +3 s delay.
        #expect(race.news[1].time >= 222 && race.news[1].time <= 225, "\(race.news[1])")
        #expect(ahead > 5)
        #expect(race.tracker.status(now: 400).leader == "me")
    }

    @Test("gaps that swing inside the margin or briefly beyond it change nothing")
    func sideBySideIsQuiet() {
        var race = Race()
        // The gap swings ±8 m every 12.6 s: beyond the 5 m margin for under 4 s at a time, short of the hold.
        race.run(from: 0, to: 300, mine: { 3 * $0 }, theirs: { 3 * $0 + 8 * sin($0 / 2) }, delay: 2)
        #expect(race.news.isEmpty, "\(race.news)")
    }

    @Test("a paused partner is paused, never lost; a silent running partner is lost once and back once")
    func pauseIsNotLoss() {
        var race = Race()
        race.run(from: 0, to: 30, mine: { 3 * $0 }, theirs: { 3 * $0 })
        #expect(race.tracker.partner(event: .paused, sequence: 1) == [.partnerPaused])
        #expect(race.tracker.partner(event: .paused, sequence: 1) == [], "a repeat is passed on once")
        var lost: [RaceNews] = []
        for time in stride(from: 31.0, through: 120, by: 1) { lost += race.tracker.tick(now: time) }
        #expect(lost.isEmpty, "\(lost)")
        #expect(race.tracker.status(now: 120).state == .paused)
        #expect(race.tracker.status(now: 120).link == .lost)
        #expect(race.tracker.partner(event: .resumed, sequence: 2) == [.partnerResumed])
        for time in stride(from: 121.0, through: 200, by: 1) { lost += race.tracker.tick(now: time) }
        #expect(lost == [.partnerLost])
        let back = race.tracker.partner(
            PartnerSnapshot(sequence: 999, distanceMetres: 100, elapsedSeconds: 195, paused: false, receivedAt: 200)
        )
        #expect(back.first == .partnerBack)
        #expect(race.tracker.status(now: 200).link == .live)
    }

    @Test("an older or repeated snapshot changes nothing; events after the finish are ignored")
    func newestWinsAndFinishIsFinal() {
        var tracker = RaceTracker(partner: "bob")
        _ = tracker.partner(
            PartnerSnapshot(sequence: 5, distanceMetres: 50, elapsedSeconds: 20, paused: false, receivedAt: 21)
        )
        _ = tracker.partner(
            PartnerSnapshot(sequence: 4, distanceMetres: 10, elapsedSeconds: 5, paused: false, receivedAt: 22)
        )
        #expect(tracker.status(now: 22).distanceMetres == 50)
        #expect(
            tracker.partner(event: .finished(elapsedSeconds: 1200, distanceMetres: 5000), sequence: 3)
                == [.partnerFinished(elapsedSeconds: 1200, distanceMetres: 5000)]
        )
        #expect(tracker.partner(event: .abandoned, sequence: 4) == [])
        #expect(tracker.partner(event: .paused, sequence: 5) == [])
        #expect(tracker.status(now: 500).state == .finished)
        #expect(tracker.tick(now: 500) == [], "a finished partner is not lost")
    }
}
