import CueLanguages
import Cues
import HeartRate
import RaceCore
import SessionCore
import Testing
import TrackCore

/// The rules on scripted news: what is said, and what is not.
@Suite("Cue rules")
struct CueRulesTests {
    let id = "s1"

    func announce(_ event: SessionEvent, at time: Double) -> SessionNews {
        .announcement(Announcement(event, sessionID: id, receivedAt: time))
    }

    func reading(
        at time: Double,
        state: SessionLifecycle.State = .active,
        bpm: Int? = nil,
        distance: Double = 0
    )
        -> SessionNews
    {
        .reading(
            LiveReading(
                sessionID: id,
                state: state,
                distance: distance,
                elapsed: time,
                moving: time,
                heartRate: bpm,
                at: time
            )
        )
    }

    /// Feeds news with times; every cue made, with the time it was made at.
    func run(_ rules: inout CueRules, _ script: [(Double, SessionNews)]) -> [(Double, Cue)] {
        var made: [(Double, Cue)] = []
        for (time, news) in script { made += rules.take(news, now: time).map { (time, $0) } }
        return made
    }

    @Test func autoPauseFlappingUnderTreesSaysNothingUntilTheDwellHolds() {
        var rules = CueRules(settings: CueSettings(dwell: 6))
        var script: [(Double, SessionNews)] = [(0, announce(.started(TimeAnchor(source: .gps, seconds: 0)), at: 0))]
        // Paused and resumed every 3 s for a minute: shorter than the dwell each time.
        for step in 0..<20 {
            let t = 10 + Double(step) * 3
            let event: TrackEvent =
                step.isMultiple(of: 2)
                ? .autoPaused(at: GPSTime(seconds: t)) : .autoResumed(at: GPSTime(seconds: t), pausedFor: 3)
            script.append((t, announce(.track(event), at: t)))
            script.append((t + 1, reading(at: t + 1)))
        }
        // Then a real stop: paused and held.
        script.append((80, announce(.track(.autoPaused(at: GPSTime(seconds: 80))), at: 80)))
        for t in stride(from: 81.0, through: 90, by: 1) { script.append((t, reading(at: t, state: .paused(.auto)))) }
        script.append((95, announce(.track(.autoResumed(at: GPSTime(seconds: 95), pausedFor: 15)), at: 95)))
        for t in stride(from: 96.0, through: 104, by: 1) { script.append((t, reading(at: t))) }
        let kinds = run(&rules, script).map { $0.1.kind }
        #expect(kinds == [.sessionStarted, .autoPaused, .autoResumed])
        let cues = run(&rules, [])
        #expect(cues.isEmpty)
    }

    @Test func theHeldAutoPauseIsSpokenOnceWithItsCause() {
        var rules = CueRules(settings: CueSettings(dwell: 5))
        _ = rules.take(announce(.started(TimeAnchor(source: .gps, seconds: 0)), at: 0), now: 0)
        #expect(rules.take(announce(.track(.autoPaused(at: GPSTime(seconds: 10))), at: 10), now: 10).isEmpty)
        #expect(rules.take(reading(at: 14, state: .paused(.auto)), now: 14).isEmpty)
        let cues = rules.take(reading(at: 15, state: .paused(.auto)), now: 15)
        #expect(cues.map(\.kind) == [.autoPaused])
        #expect(cues.first?.causedAt == 10)
        #expect(rules.take(reading(at: 30, state: .paused(.auto)), now: 30).isEmpty)
    }

    @Test func zonesNeedHysteresisAndHoldAndAMinimumInterval() {
        // Max 200: zone 3 from 140, zone 4 from 160.
        let zones = HeartRateZones(maxHeartRate: 200)
        var rules = CueRules(settings: CueSettings(zones: zones, zoneHysteresis: 3, zoneHold: 5, zoneMinInterval: 60))
        var script: [(Double, SessionNews)] = [(0, announce(.started(TimeAnchor(source: .gps, seconds: 0)), at: 0))]
        // Baseline zone 3, then every beat crossing 160 back and forth by one or two beats: no cue.
        for t in 1...60 { script.append((Double(t), reading(at: Double(t), bpm: t.isMultiple(of: 2) ? 161 : 158))) }
        var made = run(&rules, script)
        #expect(made.map(\.1.kind) == [.sessionStarted])
        // Clearly in zone 4 (>= 163) and held 5 s: one cue.
        script = (61...75).map { (Double($0), reading(at: Double($0), bpm: 166)) }
        made = run(&rules, script)
        #expect(made.map(\.1.message) == [.zone(.entered(4))])
        #expect(made.first?.0 == 66)
        // Back to zone 3 at once: within the minimum interval, said only once it has passed.
        script = (76...140).map { (Double($0), reading(at: Double($0), bpm: 150)) }
        made = run(&rules, script)
        #expect(made.map(\.1.message) == [.zone(.entered(3))])
        #expect(made.first.map { $0.0 - 66 >= 60 } == true)
    }

    @Test func aTargetZoneSaysAboveAndBackInNotEveryZone() {
        let zones = HeartRateZones(maxHeartRate: 200)
        var rules = CueRules(settings: CueSettings(zones: zones, zoneHold: 2, zoneMinInterval: 10, targetZone: 3))
        var script: [(Double, SessionNews)] = [(0, announce(.started(TimeAnchor(source: .gps, seconds: 0)), at: 0))]
        script += (1...20).map { (Double($0), reading(at: Double($0), bpm: 150)) }  // zone 3: baseline
        script += (21...40).map { (Double($0), reading(at: Double($0), bpm: 170)) }  // zone 4: above
        script += (41...60).map { (Double($0), reading(at: Double($0), bpm: 185)) }  // zone 5: still above
        script += (61...80).map { (Double($0), reading(at: Double($0), bpm: 150)) }  // back in
        let made = run(&rules, script).map(\.1.message)
        #expect(made == [.sessionStarted, .zone(.above(target: 3)), .zone(.inTarget(3))])
    }

    @Test func noSummaryOrZoneWhilePausedAndSummariesOnTimeAndDistance() {
        var rules = CueRules(
            settings: CueSettings(
                groups: Set(CueGroup.allCases),
                summaryEvery: 60,
                summaryEveryDistance: 1000,
                summaryFigures: [.distance, .elapsed]
            )
        )
        var script: [(Double, SessionNews)] = [(0, announce(.started(TimeAnchor(source: .gps, seconds: 0)), at: 0))]
        script += (1...59).map { (Double($0), reading(at: Double($0), distance: Double($0) * 3)) }
        script.append((60, reading(at: 60, distance: 180)))
        script.append((61, announce(.paused, at: 61)))
        script += (62...200).map { (Double($0), reading(at: Double($0), state: .paused(.command), distance: 180)) }
        let made = run(&rules, script)
        #expect(made.map(\.1.kind) == [.sessionStarted, .summary, .paused])
        #expect(made[1].1.message == .summary([.distanceIn(distance: 180, elapsed: 60)]))
    }

    @Test func aSummaryCanSpeakTheFootpodsCadenceAndLeavesItOutWithoutOne() throws {
        var rules = CueRules(
            settings: CueSettings(
                groups: Set(CueGroup.allCases),
                summaryEvery: 60,
                summaryFigures: [.distance, .cadence]
            )
        )
        var script: [(Double, SessionNews)] = [(0, announce(.started(TimeAnchor(source: .gps, seconds: 0)), at: 0))]
        for k in 1...120 {
            guard case .reading(var live) = reading(at: Double(k), distance: Double(k) * 3) else { continue }
            // The footpod streams for the first minute only.
            live.cadence = k <= 60 ? 172 : nil
            script.append((Double(k), .reading(live)))
        }
        let summaries = run(&rules, script).filter { $0.1.kind == .summary }.map(\.1.message)
        #expect(summaries == [.summary([.distance(180), .cadence(172)]), .summary([.distance(360)])])
        let catalog = try CueCatalogs(directory: nil).catalog("en")
        #expect(catalog.text(.summary([.distance(180), .cadence(172)]), units: .metric).contains("cadence 172"))
    }

    @Test func gpsLostIsRepeatedWhileItStaysLostAndRegainedOnce() {
        var rules = CueRules(settings: CueSettings(gpsReminder: 100))
        var script: [(Double, SessionNews)] = [(0, announce(.started(TimeAnchor(source: .gps, seconds: 0)), at: 0))]
        script.append((10, announce(.track(.gpsLost(lastFix: GPSTime(seconds: 5))), at: 10)))
        script += (11...250).map { (Double($0), reading(at: Double($0))) }
        script.append((251, announce(.track(.gpsRegained(at: GPSTime(seconds: 251), after: 246)), at: 251)))
        let made = run(&rules, script).map(\.1.message)
        #expect(
            made == [
                .sessionStarted, .gpsLost(again: false), .gpsLost(again: true), .gpsLost(again: true), .gpsRegained,
            ]
        )
    }

    @Test func strapBatteryLowOnceAndStrapFlapsNotAtAll() {
        var rules = CueRules(settings: CueSettings(dwell: 5, batteryLowAt: 15))
        var script: [(Double, SessionNews)] = [(0, announce(.started(TimeAnchor(source: .gps, seconds: 0)), at: 0))]
        script.append((1, announce(.strap(.battery(level: 12)), at: 1)))
        script.append((2, announce(.strap(.battery(level: 11)), at: 2)))
        // A 30 s link-layer drop pattern: lost and regained within 2 s, many times.
        for k in 0..<5 {
            let t = 10 + Double(k) * 30
            script.append((t, announce(.strap(.lost(reason: "link")), at: t)))
            script.append((t + 2, announce(.strap(.regained(after: 2)), at: t + 2)))
            script += (Int(t) + 3...Int(t) + 29).map { (Double($0), reading(at: Double($0))) }
        }
        // Then gone for good.
        script.append((200, announce(.strap(.lost(reason: "out of range")), at: 200)))
        script += (201...210).map { (Double($0), reading(at: Double($0))) }
        let made = run(&rules, script).map(\.1.message)
        #expect(made == [.sessionStarted, .batteryLow(percent: 12), .strapLost])
    }

    @Test func turnedOffKindsAreNotSpoken() {
        var rules = CueRules(settings: CueSettings(groups: [.splits]))
        let made = run(
            &rules,
            [
                (0, announce(.started(TimeAnchor(source: .gps, seconds: 0)), at: 0)),
                (1, announce(.track(.split(Split(index: 1, distance: 1000, duration: 300, endTimer: 300))), at: 1)),
                (2, announce(.paused, at: 2)),
            ]
        )
        #expect(made.map(\.1.kind) == [.split])
    }
}

/// A race's cues: the countdown, the lead, the partner's doings in their name, their silence only
/// after the dwell, the gap in the summary.
@Suite("Cue rules: a virtual race")
struct RaceCueRulesTests {
    func race(_ event: RaceEvent, at time: Double) -> SessionNews {
        .announcement(Announcement(.race(event), sessionID: "s1", receivedAt: time))
    }

    @Test func theCountdownTheLeadAndThePartnerAreSaidInWords() throws {
        var rules = CueRules(settings: CueSettings())
        let catalog = try CueCatalogs(directory: nil).catalog("en")
        var said: [String] = []
        func take(_ news: SessionNews, _ time: Double) {
            said += rules.take(news, now: time).map { catalog.text($0.message, units: .metric) }
        }
        take(race(.armed(run: "r", partner: "bea", startsIn: 35, clock: .gps), at: 0), 0)
        take(race(.countdown(.startingIn(30)), at: 5), 5)
        take(race(.countdown(.startingIn(3)), at: 32), 32)
        take(race(.countdown(.go(late: 0.01)), at: 35), 35)
        take(race(.news(.leadLost(gapMetres: 12.4)), at: 60), 60)
        take(race(.news(.leadTaken(gapMetres: 20)), at: 90), 90)
        take(race(.news(.partnerPaused), at: 100), 100)
        take(race(.news(.partnerFinished(elapsedSeconds: 1450, distanceMetres: 5000)), at: 200), 200)
        #expect(
            said == [
                "Starting in 30 seconds.", "3.", "Go.", "bea passed you, 12 metres behind.",
                "You lead bea by 20 metres.",
                "bea paused.", "bea finished in 24 minutes 10 seconds.",
            ]
        )
    }

    @Test func aPartnerLostIsSaidOnlyAfterTheDwellAndBackOnlyIfLostWasSaid() throws {
        var rules = CueRules(settings: CueSettings(dwell: 6))
        _ = rules.take(race(.followed(run: "r", partner: "bea"), at: 0), now: 0)
        #expect(rules.take(race(.news(.partnerLost), at: 10), now: 10).isEmpty)
        #expect(rules.take(race(.news(.partnerBack), at: 12), now: 12).isEmpty, "back within the dwell: nothing")
        #expect(rules.take(race(.news(.partnerLost), at: 20), now: 20).isEmpty)
        let lost = rules.take(race(.news(.partnerLost), at: 26), now: 26)
        #expect(lost.map(\.message) == [.partner(.lost("bea"))])
    }
}
