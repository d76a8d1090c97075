#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How much longer than the straight line a path across a gap in the fixes can have been, judged
/// by the directions the wearer left and arrived in.
///
/// The longest path that turns only once, leaving along `entry` and arriving along `exit`, is the
/// two legs of the triangle over the chord whose base angles are the two directions' angles to
/// it: a smooth curve with those ends lies inside the triangle and is shorter. Its length over the
/// chord is (sin A + sin B) / sin(A + B), which is 1 for a straight road (both directions along
/// the chord), 1.41 for a right-angled corner taken in the gap (45 degrees each) and grows
/// without bound as the two directions turn away from each other. A road the fixes left and
/// rejoined in a straight line was not walked further than its chord, whatever the speeds at
/// its two ends say.
enum GapCourse {
    /// The bound, no more than `limit`; `limit` itself when either direction is unknown (too slow to
    /// have one) or the two turn through half a circle or more (a loop, a reversal).
    static func detourFactor(chord: LocalPoint, entry: LocalPoint?, exit: LocalPoint?, limit: Double) -> Double {
        guard let entry, let exit else { return limit }
        guard chord.length > 0 else { return limit }
        let a = angle(entry, chord)
        let b = angle(exit, chord)
        guard a + b < Double.pi else { return limit }
        guard a + b > 1e-9 else { return 1 }
        return min(limit, max(1, (sin(a) + sin(b)) / sin(a + b)))
    }

    /// The unsigned angle between two vectors, 0...pi.
    private static func angle(_ u: LocalPoint, _ v: LocalPoint) -> Double {
        let cross = u.east * v.north - u.north * v.east
        let dot = u.east * v.east + u.north * v.north
        return atan2(abs(cross), dot)
    }
}
