import Testing
import TrackCore

@Suite("Live epoch merger")
struct LiveEpochMergerTests {
    private func tpv(_ t: Double, speed: Double?, eps: Double? = nil) -> Fix {
        Fix(
            mode: 3,
            time: GPSTime(seconds: t),
            position: GeoPoint(latitude: 1, longitude: 1),
            speed: speed,
            speedError: eps
        )
    }

    @Test func onceTheReportsPerEpochAreKnownAnEpochGoesOutWithItsLastReport() {
        var merger = LiveEpochMerger()
        // First epoch: the count is not known yet, so it waits for the next epoch.
        #expect(merger.add(tpv(100, speed: 0), now: 0.00).isEmpty)
        #expect(merger.add(tpv(100, speed: 3.1, eps: 0.4), now: 0.03).isEmpty)
        let first = merger.add(tpv(101, speed: 0), now: 1.00)
        #expect(first.count == 1 && first.first?.speed == 3.1 && first.first?.speedError == 0.4)
        #expect(merger.expectedReports == 2)
        // From now on the second report releases the epoch at once, merged.
        let second = merger.add(tpv(101, speed: 3.2, eps: 0.5), now: 1.03)
        #expect(second.count == 1 && second.first?.speed == 3.2)
        #expect(merger.add(tpv(102, speed: 0), now: 2.0).isEmpty)
    }

    @Test func aShortEpochGoesOutWithTheNextOrAfterTheMaximumWait() {
        var merger = LiveEpochMerger()
        for i in 0..<3 {
            _ = merger.add(tpv(Double(i), speed: 0), now: Double(i))
            _ = merger.add(tpv(Double(i), speed: 2), now: Double(i) + 0.02)
        }
        // One report only (a sentence lost): held, then released by the clock when GPS goes quiet.
        #expect(merger.add(tpv(3, speed: 2), now: 3).isEmpty)
        #expect(merger.flush(now: 3.1) == nil)
        #expect(merger.flush(now: 3 + LiveEpochMerger.maximumWait)?.time == GPSTime(seconds: 3))
        #expect(merger.flushAll() == nil)
    }

    @Test func aReceiverThatStartsSendingMoreReportsIsLearnt() {
        var merger = LiveEpochMerger()
        _ = merger.add(tpv(0, speed: 1), now: 0)
        _ = merger.add(tpv(1, speed: 1), now: 1)
        #expect(merger.expectedReports == 1)
        // Epoch 1 went out alone; a second report for it is passed on (the gate calls it a duplicate).
        #expect(merger.add(tpv(1, speed: 2), now: 1.05).count == 1)
        #expect(merger.expectedReports == 2)
        #expect(merger.add(tpv(2, speed: 1), now: 2).isEmpty)
        #expect(merger.add(tpv(2, speed: 2), now: 2.05).count == 1)
    }

    @Test func reportsWithoutTimeGoStraightThrough() {
        var merger = LiveEpochMerger()
        _ = merger.add(tpv(0, speed: 1), now: 0)
        let out = merger.add(Fix(mode: 1, time: nil, position: nil), now: 0.5)
        #expect(out.count == 2 && out[0].time != nil && out[1].time == nil)
    }
}
