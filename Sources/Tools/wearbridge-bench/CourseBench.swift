import ArgumentParser
import Course
import Foundation
import SyntheticReceivers
import TrackCore

/// The course follower over draws of synthesized runs whose distance along each course is known:
/// how far its distance along is from the truth, how long after the stated distance it says off
/// course and back on course, how few points the simplified course keeps, and what a fix costs it
/// against the bare projection of the same fixes, in the same run.
struct CourseBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "course",
        abstract: "Following a course: distance-along error, off- and back-on-course delays, its cost per fix."
    )

    @Option(help: "Draws of the receiver's noise per shape.")
    var seeds: UInt64 = 20

    @Option(help: "The receiver's noise, metres an axis.")
    var noise = 3.0

    func run() throws {
        let shapes = [
            SyntheticCourse.loop(), SyntheticCourse.outAndBack(), SyntheticCourse.figureEight(),
            SyntheticCourse.track(), SyntheticCourse.streets(),
        ]
        let settings = CourseFollower.Settings()
        StandardOutput.line(
            "\(seeds) draws a shape, noise \(noise) m an axis, 3 m/s at 1 Hz; a detour 120 m to the right from 200 m,"
                + " back at 350 m; off after \(settings.offDistance) m for \(settings.offAfter) s,"
                + " back within \(settings.backDistance) m for \(settings.backAfter) s"
        )
        let header = ["length m", "points", "simplified", "rms median", "rms worst", "worst m", "off s", "back s"]
        StandardOutput.line(
            "shape".padding(toLength: 14, withPad: " ", startingAt: 0) + header.map { rightAligned($0, 12) }.joined()
        )
        var fixes = 0
        var followed = Duration.zero
        var projected = Duration.zero
        var checksum = 0.0
        let clock = ContinuousClock()
        for shape in shapes {
            guard let course = Course(name: shape.name, positions: shape.positions) else {
                throw ValidationError("\(shape.name): not a course")
            }
            var rms: [Double] = []
            var worst = 0.0
            var off: [Double] = []
            var back: [Double] = []
            for seed in 1...seeds {
                let run = SyntheticCourse.run(shape, noise: noise, seed: seed)
                var follower = CourseFollower(course: course)
                var squares = 0.0
                var counted = 0
                let began = clock.now
                for fix in run {
                    _ = follower.fix(fix.position, at: fix.time)
                    if follower.state != .finished, let along = follower.along {
                        squares += (along - fix.along) * (along - fix.along)
                        counted += 1
                        worst = max(worst, abs(along - fix.along))
                    }
                }
                followed += clock.now - began
                fixes += run.count
                let frame = LocalFrame(origin: SyntheticCourse.origin)
                var sum = 0.0
                let bare = clock.now
                for fix in run { sum += frame.project(fix.position).length }
                projected += clock.now - bare
                checksum += sum
                rms.append((squares / Double(max(1, counted))).squareRoot())

                let detour = SyntheticCourse.Detour(at: 200, out: -120, back: 350)
                var detoured = CourseFollower(course: course)
                var passed: Double?
                var within: Double?
                for fix in SyntheticCourse.run(shape, noise: noise, seed: seed, detour: detour) {
                    if passed == nil, fix.away > settings.offDistance { passed = fix.time }
                    if passed != nil, within == nil, fix.away <= settings.backDistance { within = fix.time }
                    for event in detoured.fix(fix.position, at: fix.time) {
                        switch event {
                        case .offCourse: off.append(fix.time - (passed ?? fix.time))
                        case .backOnCourse: back.append(fix.time - (within ?? fix.time))
                        default: break
                        }
                    }
                }
            }
            let simple = CourseShape.simplified(course)
            let sorted = rms.sorted()
            let cells = [
                String(format: "%.0f", course.length), "\(course.points.count)", "\(simple.points.count)",
                String(format: "%.2f", sorted[sorted.count / 2]), String(format: "%.2f", sorted.last ?? 0),
                String(format: "%.1f", worst), Self.range(off, of: Int(seeds)), Self.range(back, of: Int(seeds)),
            ]
            StandardOutput.line(
                shape.name.padding(toLength: 14, withPad: " ", startingAt: 0)
                    + cells.map { rightAligned($0, 12) }.joined()
            )
        }
        let perFix = Self.nanoseconds(followed) / Double(fixes)
        let bare = Self.nanoseconds(projected) / Double(fixes)
        StandardOutput.line(
            String(
                format:
                    "cost: %.0f ns a fix followed, %.1f ns a fix projected (the baseline, the same fixes): ratio %.1f over %d fixes (checksum %.0f)",
                perFix,
                bare,
                perFix / bare,
                fixes,
                checksum
            )
        )
    }

    static func nanoseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    }

    /// "min-max" of the delays, with how many of the draws said it when not all did.
    static func range(_ values: [Double], of draws: Int) -> String {
        guard let low = values.min(), let high = values.max() else { return "never" }
        let span = String(format: "%.0f-%.0f", low, high)
        return values.count == draws ? span : "\(span) (\(values.count))"
    }
}
