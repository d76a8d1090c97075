import ArgumentParser
import Foundation
import Replay
import SyntheticReceivers
import TrackCore

/// The largest credit of any one step against the receiver's own speed over the time that step
/// covers (`StepCredits`): on every recorded session, on the receivers that misreport, and over
/// draws of every synthetic route. A resume from standing that pays for the standstill's drift
/// shows here as metres beyond the integral.
struct ResumeCredits: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "steps",
        abstract: "The largest single-step credit beyond the receiver's own speed, per session and over draws."
    )

    @OptionGroup var options: DataOptions

    @Option(help: "Draws per synthetic route.")
    var seeds: UInt64 = 200

    @Option(help: "Instead: print every step of this synthetic route's draw (with --seed-number).")
    var traceRoute: String?

    @Option(help: "The draw --trace-route prints.")
    var seedNumber: UInt64 = 1

    func run() throws {
        if let name = traceRoute {
            guard let route = HonestRoute.named(name) else {
                throw ValidationError("no route named \(name)")
            }
            trace(route.make(seedNumber).fixes, activity: route.activity)
            return
        }
        StandardOutput.line(
            "largest excess of one step's credit over the Doppler integral of the time it covers (m; slack \(fmt(StepCredits.slack, 1)) m)"
        )
        StandardOutput.line(
            "session".padding(toLength: 34, withPad: " ", startingAt: 0) + rightAligned("worst excess", 13)
                + rightAligned("at s", 7) + rightAligned("credited", 10) + rightAligned("integral", 10)
                + rightAligned("largest step", 14) + rightAligned("over slack", 12)
        )
        for folder in ["gps", "gps-real"] {
            for session in try Truth.sessions(in: "\(options.data)/\(folder)") {
                var credits = StepCredits(slack: StepCredits.slack)
                var start: Double?
                let replayer = FileReplayer(activity: session.activity, logger: quietLogger())
                _ = try replayer.replay(path: session.recording) { fix, outcome, track in
                    if start == nil { start = fix.time?.seconds }
                    credits.observe(fix, outcome, distance: track.distance)
                }
                row(session.name, credits, start: start ?? 0)
            }
        }
        let (walk, _) = MisreportingReceiver.sirfWalk()
        synthetic("SiRF-II: epx/epy 287 m, walk", StepCredits(walk, activity: .walking, slack: StepCredits.slack), walk)
        let (city, _) = MisreportingReceiver.cityRun()
        synthetic("city run: bursts on corners", StepCredits(city, activity: .running, slack: StepCredits.slack), city)

        StandardOutput.line("")
        StandardOutput.line("over \(seeds) draws per route")
        StandardOutput.line(
            "route".padding(toLength: 34, withPad: " ", startingAt: 0) + rightAligned("worst excess", 13)
                + rightAligned("median", 9) + rightAligned("largest step", 14) + rightAligned("draws over slack", 18)
                + rightAligned("worst", 20)
        )
        for route in HonestRoute.all {
            var excesses: [Double] = []
            var worst: (excess: Double, seed: UInt64, at: Double) = (-.infinity, 0, 0)
            var largest = 0.0
            var over = 0
            for seed in 1...seeds {
                let fixes = route.make(seed).fixes
                let credits = StepCredits(fixes, activity: route.activity, slack: StepCredits.slack)
                excesses.append(credits.worst?.excess ?? 0)
                if let step = credits.worst, step.excess > worst.excess {
                    worst = (step.excess, seed, step.time - (fixes.first?.time?.seconds ?? 0))
                }
                largest = max(largest, credits.largest?.credited ?? 0)
                if !credits.over.isEmpty { over += 1 }
            }
            excesses.sort()
            StandardOutput.line(
                route.name.padding(toLength: 34, withPad: " ", startingAt: 0)
                    + rightAligned(fmt(excesses.last ?? 0, 2), 13)
                    + rightAligned(fmt(excesses[excesses.count / 2], 2), 9) + rightAligned(fmt(largest, 1), 14)
                    + rightAligned("\(over)/\(seeds)", 18)
                    + rightAligned("draw \(worst.seed) at \(fmt(worst.at, 0)) s", 20)
            )
        }
    }

    /// Every step: seconds in, the fix's Doppler and error estimate, what the step credited, still or not.
    private func trace(_ fixes: [Fix], activity: Activity) {
        let start = fixes.first?.time?.seconds ?? 0
        var before = 0.0
        _ = replayed(fixes, activity: activity) { fix, outcome, session in
            let verdict: String
            switch outcome.verdict {
            case .accepted: verdict = "ok"
            case .rejected(let reason): verdict = "\(reason)"
            }
            StandardOutput.line(
                "\(fmt((fix.time?.seconds ?? 0) - start, 0)) doppler \(fmt(fix.speed ?? -1, 2)) eph \(fmt(fix.horizontalError ?? -1, 1)) "
                    + "credit \(fmt(session.distance - before, 2)) total \(fmt(session.distance, 1)) still \(session.isStill) \(verdict)"
            )
            before = session.distance
        }
    }

    private func synthetic(_ name: String, _ credits: StepCredits, _ fixes: [Fix]) {
        row(name, credits, start: fixes.first?.time?.seconds ?? 0)
    }

    private func row(_ name: String, _ credits: StepCredits, start: Double) {
        guard let worst = credits.worst, let largest = credits.largest else {
            StandardOutput.line(name.padding(toLength: 34, withPad: " ", startingAt: 0) + rightAligned("no credit", 13))
            return
        }
        StandardOutput.line(
            name.padding(toLength: 34, withPad: " ", startingAt: 0) + rightAligned(fmt(worst.excess, 2), 13)
                + rightAligned(fmt(worst.time - start, 0), 7) + rightAligned(fmt(worst.credited, 2), 10)
                + rightAligned(fmt(worst.doppler, 2), 10) + rightAligned(fmt(largest.credited, 1), 14)
                + rightAligned("\(credits.over.count)", 12)
        )
    }
}
