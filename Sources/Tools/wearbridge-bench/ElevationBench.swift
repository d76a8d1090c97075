import ArgumentParser
import Elevation
import Foundation
import SyntheticReceivers
import TrackCore

/// Elevation gain and loss against the truth over draws of hilly courses, from GPS alone and
/// with a barometer; the baseline, the receiver's raw altitudes' rises summed.
struct ElevationBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "elevation",
        abstract: "Elevation gain and loss over draws of hilly courses, GPS alone and with a barometer."
    )

    @Option(help: "Draws per course.")
    var seeds: UInt64 = 200

    @Option(help: "The climb counter's hysteresis on GPS alone, metres.")
    var gpsThreshold = ElevationTrack.Settings().gpsThreshold
    @Option(help: "The correlation time of a receiver's altitude error, seconds.")
    var gpsCorrelation = AltitudeFilter.Settings().gpsCorrelation
    @Option(help: "The vertical acceleration's spectral density with a barometer, m^2/s^3.")
    var acceleration = AltitudeFilter.Settings().acceleration
    @Option(help: "The same on GPS alone.")
    var gpsAcceleration = AltitudeFilter.Settings().gpsAcceleration

    func run() throws {
        var settings = ElevationTrack.Settings()
        settings.gpsThreshold = gpsThreshold
        settings.filter.gpsCorrelation = gpsCorrelation
        settings.filter.acceleration = acceleration
        settings.filter.gpsAcceleration = gpsAcceleration
        StandardOutput.line("gain and loss error (m) over \(seeds) draws: mean / rms")
        StandardOutput.line(
            "course".padding(toLength: 22, withPad: " ", startingAt: 0)
                + ["true gain", "raw sum", "GPS gain", "GPS loss", "baro gain", "baro loss"]
                .map { rightAligned($0, 18) }.joined()
        )
        for course in ElevatedReceiver.courses {
            var raw: [Double] = []
            var gpsGain: [Double] = []
            var gpsLoss: [Double] = []
            var baroGain: [Double] = []
            var baroLoss: [Double] = []
            var truth = 0.0
            for seed in 1...seeds {
                let draw = course.route.make(seed)
                let session = ElevatedReceiver.session(draw, profile: course.profile, seed: seed)
                truth = session.gain
                let altitudes = session.fixes.compactMap(\.altitude)
                raw.append(zip(altitudes, altitudes.dropFirst()).reduce(0) { $0 + max(0, $1.1 - $1.0) } - session.gain)
                let gps = ElevatedReceiver.replayed(
                    session,
                    activity: course.route.activity,
                    barometer: false,
                    settings: settings
                )
                gpsGain.append(gps.elevation.gain - session.gain)
                gpsLoss.append(gps.elevation.loss - session.loss)
                let baro = ElevatedReceiver.replayed(
                    session,
                    activity: course.route.activity,
                    barometer: true,
                    settings: settings
                )
                baroGain.append(baro.elevation.gain - session.gain)
                baroLoss.append(baro.elevation.loss - session.loss)
            }
            StandardOutput.line(
                course.name.padding(toLength: 22, withPad: " ", startingAt: 0)
                    + rightAligned(String(format: "%.1f", truth), 18)
                    + [raw, gpsGain, gpsLoss, baroGain, baroLoss].map { rightAligned(Self.meanRMS($0), 18) }.joined()
            )
        }
    }

    static func meanRMS(_ errors: [Double]) -> String {
        let n = Double(errors.count)
        let mean = errors.reduce(0, +) / n
        let rms = (errors.reduce(0) { $0 + $1 * $1 } / n).squareRoot()
        return String(format: "%+.1f / %.1f", mean, rms)
    }
}
