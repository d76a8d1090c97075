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

    @Test("the gap in time is how long ago the leader was where the other is, either way round")
    func gapInTime() throws {
        // I run 3 m/s; the partner 4 m/s: at 300 s (their newest) they are at 1200 m, I at 900 m,
        // where they were at 225 s: 75 s behind, 300 m behind.
        var behind = Race()
        behind.run(from: 0, to: 303, mine: { 3 * $0 }, theirs: { 4 * $0 })
        let late = behind.tracker.status(now: 303)
        #expect(abs(try #require(late.gapMetres) + 300) < 0.001)
        #expect(abs(try #require(late.gapSeconds) + 75) < 0.5, "\(late)")
        // The other way round: I lead, and I was at their 900 m at 225 s.
        var ahead = Race()
        ahead.run(from: 0, to: 303, mine: { 4 * $0 }, theirs: { 3 * $0 })
        #expect(abs(try #require(ahead.tracker.status(now: 303).gapSeconds) - 75) < 0.5)
        // Level, or neither having moved yet: no gap.
        var level = Race()
        level.run(from: 0, to: 30, mine: { _ in 0 }, theirs: { _ in 0 })
        #expect(level.tracker.status(now: 30).gapSeconds == 0)
    }

    @Test("a stand counts as the time it took: the gap is from when the leader left the spot")
    func gapInTimeAcrossAStand() throws {
        // The partner runs 3 m/s, stands at 300 m from 100 s to 160 s (a light), then runs on;
        // I run 2.5 m/s and reach 300 m at 120 s, while they stand there.
        var race = Race()
        let theirs: (Double) -> Double = { $0 <= 100 ? 3 * $0 : $0 <= 160 ? 300 : 300 + 3 * ($0 - 160) }
        race.run(from: 0, to: 103, mine: { 2.5 * $0 }, theirs: theirs)
        // At 100 s: I am at 250 m, where they were at 83.3 s: 16.7 s behind.
        #expect(abs(try #require(race.tracker.status(now: 103).gapSeconds) + 16.7) < 0.5)
        race.run(from: 104, to: 183, mine: { 2.5 * $0 }, theirs: theirs)
        // At 180 s: they are at 360 m, I at 450 m: I passed 360 m at 144 s, 36 s ahead, though they
        // were at 300 m for a minute before.
        let status = race.tracker.status(now: 183)
        #expect(abs(try #require(status.gapMetres) - 90) < 0.001)
        #expect(abs(try #require(status.gapSeconds) - 36) < 0.5, "\(status)")
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
