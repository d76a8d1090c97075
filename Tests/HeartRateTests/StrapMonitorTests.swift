import HeartRate
import Testing

@Suite("Strap monitor")
struct StrapMonitorTests {
    private func beat(_ contact: SensorContact = .detected) -> HeartRateMeasurement {
        HeartRateMeasurement(bpm: 120, contact: contact)
    }

    @Test func foundOnceThenLostAndRegainedWithTheGap() {
        var monitor = StrapMonitor(address: "AA:BB:CC:DD:EE:FF")
        monitor.linked(now: 0)
        #expect(monitor.beat(beat(), now: 1) == [.found(address: "AA:BB:CC:DD:EE:FF")])
        #expect(monitor.beat(beat(), now: 2).isEmpty)
        #expect(monitor.linkDown(reason: "link closed", now: 3) == [.lost(reason: "link closed")])
        // Failed attempts while away are not further losses.
        #expect(monitor.linkDown(reason: "no connection", now: 10).isEmpty)
        monitor.linked(now: 20)
        #expect(monitor.beat(beat(), now: 21.5) == [.regained(after: 18.5)])
    }

    @Test func aLinkThatNeverDeliveredIsNotLost() {
        var monitor = StrapMonitor(address: "x")
        monitor.linked(now: 0)
        #expect(monitor.linkDown(reason: "closed", now: 1).isEmpty)
    }

    @Test func silenceCountsFromTheLastBeatOrTheSubscription() {
        var monitor = StrapMonitor(address: "x", silenceAfter: 5)
        #expect(!monitor.isSilent(now: 100), "not linked: nothing to be silent")
        monitor.linked(now: 10)
        #expect(!monitor.isSilent(now: 15) && monitor.isSilent(now: 15.1))
        _ = monitor.beat(beat(), now: 14)
        #expect(!monitor.isSilent(now: 19) && monitor.isSilent(now: 19.5))
        _ = monitor.linkDown(reason: "silent", now: 20)
        #expect(!monitor.isSilent(now: 60))
    }

    @Test func contactChangesOnlyBetweenDetectedAndNotDetected() {
        var monitor = StrapMonitor(address: "x")
        monitor.linked(now: 0)
        _ = monitor.beat(beat(), now: 1)
        #expect(monitor.beat(beat(.notSupported), now: 2).isEmpty)
        #expect(monitor.beat(beat(.notDetected), now: 3) == [.contactLost])
        #expect(monitor.beat(beat(.notDetected), now: 4).isEmpty)
        #expect(monitor.beat(beat(.detected), now: 5) == [.contactRegained])
    }

    @Test func batteryIsReportedWhenItChangesAndOnlyWhenItIsAPercentage() {
        var monitor = StrapMonitor(address: "x")
        #expect(monitor.batteryLevel(80) == [.battery(level: 80)])
        #expect(monitor.batteryLevel(80).isEmpty)
        #expect(monitor.batteryLevel(255).isEmpty)
        #expect(monitor.batteryLevel(79) == [.battery(level: 79)])
    }
}
