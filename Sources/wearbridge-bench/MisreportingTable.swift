import SyntheticReceivers
import TrackCore

/// The receivers of issue 13, synthesized from what real hardware did: ours against the truth, the
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
                let distance = run(MisreportingReceiver.phoneOnDesk(seconds: 180, seed: seed), activity)
                if distance >= worst.distance { worst = (distance, "\(activity.rawValue), seed \(seed)") }
            }
        }
        let phone = MisreportingReceiver.phoneOnDesk(seconds: 180, seed: 11)
        row("phone modem on a desk, 3 min", .walking, phone, truth: 0)
        StandardOutput.line(
            "phone modem on a desk, 3 activities x 3 seeds: worst \(fmt(worst.distance, 1)) m (\(worst.label))"
        )
    }

    private static func run(_ fixes: [Fix], _ activity: Activity) -> Double {
        var session = TrackSession(activity: activity)
        var merger = EpochMerger()
        for fix in fixes { merger.add(fix) { _ = session.ingest($0) } }
        if let last = merger.flush() { _ = session.ingest(last) }
        return session.distance
    }

    private static func row(_ label: String, _ activity: Activity, _ fixes: [Fix], truth: Double) {
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : String(repeating: " ", count: n - s.count) + s }
        let ours = run(fixes, activity)
        var naive = 0.0
        var doppler = 0.0
        for (previous, fix) in zip(fixes, fixes.dropFirst()) {
            if let a = previous.position, let b = fix.position { naive += NaiveDistance.haversine(a, b) }
            if let t0 = previous.time, let t1 = fix.time, let v0 = previous.speed, let v1 = fix.speed {
                doppler += 0.5 * (v0 + v1) * t1.since(t0)
            }
        }
        let error = truth > 0 ? fmt((ours - truth) / truth * 100, 2) + "%" : "+" + fmt(ours, 1) + " m"
        StandardOutput.line(
            label.padding(toLength: 33, withPad: " ", startingAt: 0)
                + activity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0) + pad(fmt(truth, 1), 10)
                + pad(fmt(ours, 1), 11) + pad(error, 9) + pad(fmt(naive, 1), 10) + pad(fmt(doppler, 1), 12)
        )
    }
}
