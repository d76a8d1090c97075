import Cues
import Testing

/// One cue at a time: priority, freshness, replacement, a bound.
@Suite("Cue queue")
struct CueQueueTests {
    func cue(_ message: CueMessage, at time: Double, freshness: Double = 10) -> Cue {
        Cue(message, causedAt: time, freshness: freshness)
    }

    @Test func theMostUrgentGoesFirstThenTheOldest() {
        var queue = CueQueue()
        _ = queue.add(cue(.summary([.distance(1000)]), at: 0))
        _ = queue.add(cue(.split(index: 1, duration: 300, pace: 300, heartRate: nil), at: 1))
        _ = queue.add(cue(.gpsLost(again: false), at: 2))
        _ = queue.add(cue(.zone(.entered(3)), at: 3))
        var order: [CueKind] = []
        while let next = queue.next(at: 4).cue {
            order.append(next.kind)
            queue.finished()
        }
        #expect(order == [.gpsLost, .split, .zone, .summary])
    }

    @Test func neverTwoAtOnce() {
        var queue = CueQueue()
        _ = queue.add(cue(.paused, at: 0))
        _ = queue.add(cue(.gpsLost(again: false), at: 0))
        #expect(queue.next(at: 0).cue?.kind == .paused)
        #expect(queue.next(at: 1).cue == nil)
        queue.finished()
        #expect(queue.next(at: 2).cue?.kind == .gpsLost)
    }

    @Test func aStaleCueIsDroppedNotSpokenLate() {
        var queue = CueQueue()
        _ = queue.add(cue(.paused, at: 0))
        _ = queue.add(cue(.split(index: 2, duration: 280, pace: 280, heartRate: 150), at: 1, freshness: 5))
        #expect(queue.next(at: 1).cue?.kind == .paused)
        queue.finished()
        let (next, dropped) = queue.next(at: 7)
        #expect(next == nil)
        #expect(dropped.map(\.reason) == [.stale])
        #expect(dropped.first?.cue.kind == .split)
    }

    @Test func aNewerCueOnTheSameTopicReplacesTheWaitingOne() {
        var queue = CueQueue()
        _ = queue.add(cue(.say("busy"), at: 0))
        #expect(queue.next(at: 0).cue?.kind == .say)
        #expect(queue.add(cue(.gpsLost(again: false), at: 1)).isEmpty)
        let dropped = queue.add(cue(.gpsRegained, at: 2))
        #expect(dropped.map(\.reason) == [.replaced])
        #expect(dropped.first?.cue.kind == .gpsLost)
        let split1 = queue.add(cue(.split(index: 1, duration: 300, pace: 300, heartRate: nil), at: 3))
        let split2 = queue.add(cue(.split(index: 2, duration: 290, pace: 290, heartRate: nil), at: 4))
        #expect(split1.isEmpty && split2.map(\.reason) == [.replaced])
        queue.finished()
        #expect(queue.next(at: 5).cue?.kind == .gpsRegained)
        queue.finished()
        #expect(queue.next(at: 5).cue?.message == .split(index: 2, duration: 290, pace: 290, heartRate: nil))
    }

    @Test func theEndOfASessionDropsItsWaitingSplitsAndSummaries() {
        var queue = CueQueue()
        _ = queue.add(cue(.paused, at: 0))
        #expect(queue.next(at: 0).cue?.kind == .paused)
        _ = queue.add(cue(.split(index: 5, duration: 311, pace: 311, heartRate: nil), at: 1))
        _ = queue.add(cue(.summary([.distance(5000)]), at: 1))
        _ = queue.add(cue(.gpsLost(again: false), at: 1))
        let dropped = queue.add(
            cue(.sessionEnded(distance: 5840, moving: 1871, averagePace: 320, averageHeartRate: nil), at: 2)
        )
        #expect(dropped.map(\.reason) == [.superseded, .superseded])
        queue.finished()
        #expect(queue.next(at: 3).cue?.kind == .gpsLost)
        queue.finished()
        #expect(queue.next(at: 4).cue?.kind == .sessionEnded)
    }

    @Test func pastItsCapacityTheLeastUrgentOldestGoes() {
        var queue = CueQueue(capacity: 2)
        _ = queue.add(cue(.summary([.distance(1)]), at: 0))
        _ = queue.add(cue(.gpsLost(again: false), at: 1))
        let dropped = queue.add(cue(.zone(.entered(2)), at: 2))
        #expect(dropped.map(\.reason) == [.overflow])
        #expect(dropped.first?.cue.kind == .summary)
        #expect(queue.drain().map(\.reason) == [.shutdown, .shutdown])
    }
}
