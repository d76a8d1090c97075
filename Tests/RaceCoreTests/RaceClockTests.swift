import RaceCore
import Testing

@Suite("Race clock and countdown")
struct RaceClockTests {
    @Test("GPS time teaches the offset; the system clock counts only until it does")
    func gpsOverSystem() {
        var clock = RaceClock()
        #expect(clock.source == nil)
        #expect(clock.monotonic(forUTC: 1000) == nil)
        // The Pi booted without an RTC: its system clock is a day off.
        clock.system(utc: 86_400 + 500, monotonic: 100)
        #expect(clock.source == .system)
        #expect(clock.monotonic(forUTC: 86_400 + 600) == 200)
        for second in 0..<10 {
            clock.gps(utc: 500 + Double(second), monotonic: 100 + Double(second) + 0.3)
        }
        #expect(clock.source == .gps)
        // UTC 600 is monotonic 200.3 by GPS (the fixes arrive 0.3 s after their time).
        #expect(abs((clock.monotonic(forUTC: 600) ?? 0) - 200.3) < 1e-9)
        #expect(abs((clock.utc(atMonotonic: 200.3) ?? 0) - 600) < 1e-9)
    }

    @Test("a receiver's time that jumps is not believed; one sample moves nothing")
    func outliersRejected() {
        var clock = RaceClock()
        for second in 0..<20 {
            clock.gps(utc: 1000 + Double(second), monotonic: Double(second))
        }
        clock.gps(utc: 1000 + 20 + 3600, monotonic: 20)  // a week-rollover or leap-hour mistake
        clock.gps(utc: 1000 + 21 - 5, monotonic: 21)
        #expect(clock.rejected == 2)
        #expect(clock.monotonic(forUTC: 1030) == 30)
        // One early sample within the limit does not move the estimate either.
        clock.gps(utc: 1000 + 22 + 1.5, monotonic: 22)
        #expect(clock.rejected == 2)
        #expect(clock.monotonic(forUTC: 1030) == 30)
    }

    @Test("the countdown says each point once, in order, then go with its lateness")
    func countdownOnTime() {
        var countdown = Countdown(start: 100, now: 50)
        var calls: [(Double, Countdown.Call)] = []
        var now = 50.0
        while !countdown.finished, now < 200 {
            for call in countdown.tick(now: now) { calls.append((now, call)) }
            now += 0.1
        }
        let said = calls.map(\.1)
        #expect(said == [30, 10, 5, 4, 3, 2, 1].map { .startingIn($0) } + [.go(late: calls.last!.0 - 100)])
        #expect(calls.last!.0 >= 100 && calls.last!.0 < 100.1 + 1e-9)
        #expect(abs(calls[0].0 - 70) < 0.1 + 1e-9)
        #expect(countdown.tick(now: 300) == [])
    }

    @Test("a countdown begun late skips what is past; one begun after the start says only go")
    func countdownLate() {
        var late = Countdown(start: 100, now: 93)
        #expect(late.tick(now: 93) == [])
        #expect(late.tick(now: 95) == [.startingIn(5)])
        var missed = Countdown(start: 100, now: 102.5)
        #expect(missed.tick(now: 102.5) == [.go(late: 2.5)])
        // A tick that jumps over the last points and the start says only go.
        var jumped = Countdown(start: 100, now: 80)
        #expect(jumped.tick(now: 90) == [.startingIn(10)])
        #expect(jumped.tick(now: 100.2).count == 1)
    }
}
