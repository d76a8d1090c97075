import CueLanguages
import Cues
import Foundation
import GPSD
import HeartRate
import SessionCore
import Testing
import TrackCore

/// Cues on a whole session: the split cue speaks the split row the data log stores, and the
/// timeline of a shared recording is the same on every run.
@Suite("Cues on whole sessions")
struct SessionCueTests {
    /// A straight run at 3.2 m/s for 12 minutes with a beat every second: three splits.
    func run() -> [SessionController.JournalEntry] {
        let origin = GeoPoint(latitude: 48.137, longitude: 11.575)
        let frame = LocalFrame(origin: origin)
        var entries: [SessionController.JournalEntry] = []
        for second in 0...720 {
            let t = Double(second)
            let position = frame.unproject(LocalPoint(east: 3.2 * t, north: 0))
            entries.append(
                .fix(
                    Fix(
                        mode: 3,
                        time: GPSTime(seconds: 1_750_000_000 + t),
                        position: position,
                        errorEast: 3,
                        errorNorth: 3,
                        horizontalError: 4,
                        speed: 3.2,
                        track: 90,
                        speedError: 0.3,
                        receivedAt: 1000 + t
                    )
                )
            )
            entries.append(
                .heartRate(HeartRateSample(bpm: 140 + second / 60, contact: .detected, receivedAt: 1000.5 + t))
            )
        }
        return entries
    }

    @Test func splitCuesSpeakTheSplitRowsTheLogStores() throws {
        let configuration = SessionController.Configuration(
            autostart: true,
            heartRateZones: HeartRateZones(maxHeartRate: 190)
        )
        var controller = SessionController(configuration: configuration, ids: SessionIDGenerator(seed: 3))
        var rules = CueRules(settings: CueSettings())
        var stored: [Split] = []
        var spoken: [CueMessage] = []
        for entry in run() {
            var output = SessionOutput()
            switch entry {
            case .fix(let fix): controller.ingest(fix, into: &output)
            case .heartRate(let sample): controller.heartRate(sample, into: &output)
            case .speed(let sample): controller.speed(sample, into: &output)
            case .pressure(let sample): controller.pressure(sample, into: &output)
            case .command: break
            }
            for row in output.rows {
                if case .event(_, let announcement) = row, case .track(.split(let split)) = announcement.event {
                    stored.append(split)
                }
            }
            for announcement in output.announcements {
                spoken += rules.take(.announcement(announcement), now: announcement.receivedAt ?? 0).map(\.message)
            }
        }
        let splits = spoken.compactMap { message -> CueMessage? in
            if case .split = message { return message }
            return nil
        }
        #expect(stored.count == 2)
        #expect(
            splits
                == stored.map {
                    .split(index: $0.index, duration: $0.duration, pace: $0.pace, heartRate: $0.averageHeartRate)
                }
        )
        // The beats of each split, not of the whole session: the second split's average is higher.
        let averages = stored.compactMap(\.averageHeartRate)
        #expect(averages.count == 2 && averages[1] > averages[0] && averages[0] > 140)
    }

    @Test func theTimelineOfASharedRecordingIsTheSameEveryRun() throws {
        let path = "\(recordings)/gps/park_loop_run.jsonl"
        let catalog = try CueCatalogs(directory: nil).catalog("en")
        let timeline = CueTimeline(
            settings: CueSettings(summaryEvery: 300),
            catalog: catalog,
            units: .metric
        )
        let fixes = try fixesOf(path)
        let first = timeline.run(fixes, configuration: SessionController.Configuration())
        let second = timeline.run(fixes, configuration: SessionController.Configuration())
        #expect(first == second)
        #expect(first.filter { $0.kind == .split }.count == 6)
        #expect(first.first?.kind == .sessionStarted && first.last?.kind == .sessionEnded)
        #expect(first.contains { $0.kind == .summary })
        // Never two at once: each spoken cue starts after the previous one's words are over.
        let spoken = first.filter { $0.dropped == nil }
        for (a, b) in zip(spoken, spoken.dropFirst()) {
            #expect(b.at >= a.at + timeline.speakingTime(a.text) - 1e-6)
        }
    }

    /// A gpsd JSON recording's TPV fixes, timed by their GPS time (as `wearbridge cues` reads it).
    func fixesOf(_ path: String) throws -> [SessionController.JournalEntry] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var entries: [SessionController.JournalEntry] = []
        let decoder = GPSDDecoder()
        for line in text.split(separator: "\n") {
            guard case .tpv(let tpv)? = try? decoder.decode(Array(line.utf8)) else { continue }
            var fix = tpv.fix()
            fix.receivedAt = fix.time?.seconds
            entries.append(.fix(fix))
        }
        return entries
    }
}

/// The recordings the tests replay, in the repository's `data/`.
let recordings: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.appendingPathComponent("data").path
}()
