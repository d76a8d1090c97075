import SyntheticReceivers
import TrackCore

/// Receivers that misreport, synthesized from what real hardware did: ours against the truth, the
/// naive haversine sum, and integrating the receiver's own Doppler speed over the same epochs.
enum MisreportingTable {
    static func print() {
        StandardOutput.line("")
        StandardOutput.line("receivers that misreport (synthetic, truth known)")
        StandardOutput.line(
            "receiver                         activity   truth m     ours m    error   naive m   Doppler-integral m"
        )
        let (walk, walkTruth) = MisreportingReceiver.sirfWalk()
        row("SiRF-II: epx/epy 287 m, walk", .walking, walk, truth: walkTruth)
        let (city, cityTruth) = MisreportingReceiver.cityRun()
        row("city run: bursts on corners", .running, city, truth: cityTruth)
        var worst = (distance: 0.0, label: "")
        for activity in [Activity.walking, .running, .cycling] {
            for seed: UInt64 in [11, 12, 13] {
                let distance = replayed(MisreportingReceiver.phoneOnDesk(seconds: 180, seed: seed), activity: activity)
                    .distance
                if distance >= worst.distance { worst = (distance, "\(activity.rawValue), seed \(seed)") }
            }
        }
        let phone = MisreportingReceiver.phoneOnDesk(seconds: 180, seed: 11)
        row("phone modem on a desk, 3 min", .walking, phone, truth: 0)
        StandardOutput.line(
            "phone modem on a desk, 3 activities x 3 seeds: worst \(fmt(worst.distance, 1)) m (\(worst.label))"
        )
    }

    private static func row(_ label: String, _ activity: Activity, _ fixes: [Fix], truth: Double) {
        let ours = replayed(fixes, activity: activity).distance
        let naive = NaiveDistance.haversineSum(fixes)
        let doppler = HonestReceiver.dopplerIntegral(fixes)
        let error = truth > 0 ? fmt((ours - truth) / truth * 100, 2) + "%" : "+" + fmt(ours, 1) + " m"
        StandardOutput.line(
            label.padding(toLength: 33, withPad: " ", startingAt: 0)
                + activity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0) + rightAligned(fmt(truth, 1), 10)
                + rightAligned(fmt(ours, 1), 11) + rightAligned(error, 9) + rightAligned(fmt(naive, 1), 10)
                + rightAligned(fmt(doppler, 1), 12)
        )
    }
}
