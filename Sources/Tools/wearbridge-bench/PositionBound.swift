import ArgumentParser
import Foundation
import SyntheticReceivers
import TrackCore

/// Whether the fused positions could bound the Doppler's random walk: over draws of every route,
/// ours against ours corrected by what the filtered positions say the wearer progressed along
/// the way, at every weight of that correction from none to all of it.
///
/// For each step between two taken fixes that the core credited while moving, the filtered
/// positions' progress along the course the receiver reported (their displacement onto the two
/// fixes' mean course, lengthened from chord to arc by the course's turn) less what the core
/// credited; summed over the session, that is the positions' verdict on the distance. A weight
/// of 1 is a distance from positions alone over moving steps, 0 ours. The weight is chosen
/// after the fact for each route (an oracle no live estimator has), so the best row bounds what
/// any blend of the two could gain.
struct PositionBound: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "position-bound",
        abstract: "Ours corrected by the filtered positions' along-course progress, at every weight, over draws."
    )

    @Option(help: "Draws per route.")
    var seeds: UInt64 = 200

    func run() throws {
        let weights = stride(from: 0.0, through: 1.0, by: 0.1).map { $0 }
        StandardOutput.line(
            "rms error (m) over \(seeds) draws of ours + w x (the positions' progress - ours), by weight w"
        )
        StandardOutput.line(
            "route".padding(toLength: 28, withPad: " ", startingAt: 0)
                + weights.map { rightAligned(String(format: "w %.1f", $0), 8) }.joined()
                + rightAligned("best w", 8) + rightAligned("its rms / ours", 16)
        )
        for route in HonestRoute.all {
            var pairs: [(ours: Double, correction: Double)] = []
            for seed in 1...seeds {
                let draw = route.make(seed)
                let (ours, correction) = Self.corrected(draw.fixes, activity: route.activity)
                pairs.append((ours - draw.truth, correction))
            }
            let rms = weights.map { w in
                (pairs.reduce(0) { $0 + pow($1.ours + w * $1.correction, 2) } / Double(pairs.count)).squareRoot()
            }
            let best = rms.indices.min { rms[$0] < rms[$1] } ?? 0
            StandardOutput.line(
                route.name.padding(toLength: 28, withPad: " ", startingAt: 0)
                    + rms.map { rightAligned(String(format: "%.2f", $0), 8) }.joined()
                    + rightAligned(String(format: "%.1f", weights[best]), 8)
                    + rightAligned(String(format: "x%.3f", rms[best] / rms[0]), 16)
            )
        }
    }

    /// Ours, and the sum over moving steps of the positions' progress along the course less ours.
    static func corrected(_ fixes: [Fix], activity: Activity) -> (ours: Double, correction: Double) {
        var correction = 0.0
        var previous: (point: TrackPoint, course: Double, distance: Double)?
        let session = replayed(fixes, activity: activity) { fix, outcome, session in
            guard case .accepted(let point) = outcome.verdict, let course = fix.track, !session.isStill,
                outcome.events.isEmpty
            else {
                previous = nil
                return
            }
            defer { previous = (point, course, session.distance) }
            guard let last = previous else { return }
            let credited = session.distance - last.distance
            guard credited > 0 else { return }
            let local = LocalFrame(origin: last.point.position)
            let from = local.project(last.point.position)
            let to = local.project(point.position)
            var turn = (course - last.course).truncatingRemainder(dividingBy: 360)
            if turn > 180 { turn -= 360 }
            if turn < -180 { turn += 360 }
            let mid = (last.course + turn / 2) * Double.pi / 180
            let half = abs(turn) * Double.pi / 360
            let chordToArc = half > 1e-9 ? half / sin(half) : 1
            let along = ((to.east - from.east) * sin(mid) + (to.north - from.north) * cos(mid)) * chordToArc
            correction += along - credited
        }
        return (session.distance, correction)
    }
}
