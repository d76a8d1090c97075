import Foundation
import SyntheticReceivers
import TrackCore

/// Ours against the Doppler integral over many draws of the same noise: one session's verdict
/// is one draw, and both errors carry the Doppler's random noise, metres over a session.
struct DopplerSeeds {
    /// Errors against the truth (m) of ours and of the Doppler integral, and the truth, per seed.
    static func errors(
        _ route: HonestRoute,
        seeds: ClosedRange<UInt64>
    ) -> [(ours: Double, doppler: Double, truth: Double)] {
        seeds.map { seed in
            let draw = route.make(seed)
            let ours = replayed(draw.fixes, activity: route.activity).distance
            return (ours - draw.truth, HonestReceiver.dopplerIntegral(draw.fixes) - draw.truth, draw.truth)
        }
    }

    static func print(seeds: ClosedRange<UInt64> = 1...200) {
        StandardOutput.line("")
        StandardOutput.line(
            "against the Doppler integral over \(seeds.count) seeds (synthetic, the simulated sessions' noise; metres)"
        )
        StandardOutput.line(
            "route".padding(toLength: 26, withPad: " ", startingAt: 0) + rightAligned("ours mean", 10)
                + rightAligned("sd", 7) + rightAligned("rms", 7) + rightAligned("Doppler mean", 14)
                + rightAligned("sd", 7) + rightAligned("rms", 7) + rightAligned("ours nearer", 13)
                + rightAligned("within 0.15 %: ours, Doppler", 30)
        )
        for route in HonestRoute.all {
            let pairs = errors(route, seeds: seeds)
            let ours = Spread(pairs.map(\.ours))
            let doppler = Spread(pairs.map(\.doppler))
            let nearer = pairs.filter { abs($0.ours) <= abs($0.doppler) }.count
            let goal = AccuracyRow.simulatedGoal
            let oursWithin = pairs.filter { abs($0.ours) <= goal * $0.truth }.count
            let dopplerWithin = pairs.filter { abs($0.doppler) <= goal * $0.truth }.count
            StandardOutput.line(
                route.name.padding(toLength: 26, withPad: " ", startingAt: 0)
                    + rightAligned(String(format: "%+.2f", ours.mean), 10)
                    + rightAligned(String(format: "%.2f", ours.sd), 7)
                    + rightAligned(String(format: "%.2f", ours.rms), 7)
                    + rightAligned(String(format: "%+.2f", doppler.mean), 14)
                    + rightAligned(String(format: "%.2f", doppler.sd), 7)
                    + rightAligned(String(format: "%.2f", doppler.rms), 7)
                    + rightAligned("\(nearer)/\(pairs.count)", 13)
                    + rightAligned("\(oursWithin), \(dopplerWithin)", 30)
            )
        }
    }
}

/// Mean, standard deviation and root mean square of a sample.
struct Spread {
    let mean: Double
    let sd: Double
    let rms: Double

    init(_ values: [Double]) {
        let n = Double(max(values.count, 1))
        mean = values.reduce(0, +) / n
        let m = mean
        sd = (values.reduce(0) { $0 + ($1 - m) * ($1 - m) } / n).squareRoot()
        rms = (values.reduce(0) { $0 + $1 * $1 } / n).squareRoot()
    }
}
