import ArgumentParser
import Logging

/// `wearbridge-bench`: the distance core's figures, measured in one run against their baselines.
@main
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wearbridge-bench",
        abstract:
            "Accuracy, throughput and memory of the distance core; the daemon's steady state (build with -c release).",
        subcommands: [
            Accuracy.self, EnergyBench.self, GaitBench.self, ResumeCredits.self, Throughput.self, Memory.self,
            DaemonBench.self,
            DaemonCourseBench.self,
            MakeSession.self,
            RelayScale.self, FootpodBench.self, PedometerBench.self, RecordRoute.self, PositionBound.self,
            ElevationBench.self, CourseBench.self,
        ],
        defaultSubcommand: Accuracy.self
    )
}

/// Where the recordings live, relative to the repository root (data/README.md).
struct DataOptions: ParsableArguments {
    @Option(help: "The recordings folder (data/README.md).")
    var data = "data"
}

/// Benchmarks log only problems: malformed lines would be a finding, not noise.
func quietLogger() -> Logger {
    var logger = Logger(label: "wearbridge.bench")
    logger.logLevel = .error
    return logger
}
