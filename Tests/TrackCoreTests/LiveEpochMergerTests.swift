import Testing
import TrackCore

@Suite("Live epoch merger")
struct LiveEpochMergerTests {
    private func tpv(_ t: Double, speed: Double?, eps: Double? = nil) -> Fix {
        Fix(mode: 3, time: GPSTime(seconds: t), position: GeoPoint(latitude: 1, longitude: 1), speed: speed, speedError: eps)
    }

    @Test func anEpochIsMergedAndFlushedAfterAShortQuietNotOneEpochLate() {
        var merger = LiveEpochMerger()
        #expect(merger.add(tpv(100, speed: 0), now: 10.000).isEmpty)
        #expect(merger.add(tpv(100, speed: 3.1, eps: 0.4), now: 10.050).isEmpty)
        // Nothing is known about the rate yet: the longest wait.
        #expect(merger.flush(now: 10.2) == nil)
        let fix = merger.flush(now: 10.05 + LiveEpochMerger.maximumWait)
        #expect(fix?.speed == 3.1 && fix?.speedError == 0.4)
        #expect(merger.deadline == nil)
    }

    @Test func theWaitAdaptsToTenHertz() {
        var merger = LiveEpochMerger()
        var emitted = 0
        for i in 0..<50 {
            let now = Double(i) * 0.1
            emitted += merger.add(tpv(1000 + Double(i) * 0.1, speed: 2), now: now).count
            if let deadline = merger.deadline, i > 10 {
                #expect(deadline - now <= 0.041 && deadline - now >= LiveEpochMerger.minimumWait)
            }
        }
        #expect(emitted == 49)
        #expect(merger.flushAll() != nil)
    }
}
