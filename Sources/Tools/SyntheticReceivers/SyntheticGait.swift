import Foundation
import Gait
import Harness

/// Accelerometer recordings of a walk or a run, synthesized with their truth: every step's
/// instant is known. A gait is a sequence of bouts (a cadence held for a time, or a stand); each
/// step is an impact (a short pulse as the heel strikes) riding on the body's rise and fall at the
/// step rate, with noise, a few percent of jitter in the step times, and the device turned at an
/// angle that drifts. Per placement: on the hip every step's impact; on the wrist the impact
/// damped and the arm's swing (at the stride rate, centripetal at the step rate) louder; on an
/// ankle its own foot's strike and swing strong, the other foot's faint.
public enum SyntheticGait {
    public struct Bout: Sendable {
        /// Steps a minute; 0 stands.
        public var cadence: Double
        public var seconds: Double
        /// Impact size (m/s²): about 3 walking, 9 running, at the hip.
        public var impact: Double

        public init(cadence: Double, seconds: Double, impact: Double) {
            self.cadence = cadence
            self.seconds = seconds
            self.impact = impact
        }
    }

    public struct Recording: Sendable {
        public var samples: [AccelerationSample]
        /// The instants of every true step.
        public var steps: [Double]
    }

    /// Named gaits, as the tests and the bench draw them.
    public static let gaits: [(name: String, bouts: [Bout])] = [
        ("walk, steady", [Bout(cadence: 0, seconds: 5, impact: 0), Bout(cadence: 112, seconds: 300, impact: 3)]),
        ("run, steady", [Bout(cadence: 0, seconds: 5, impact: 0), Bout(cadence: 172, seconds: 300, impact: 9)]),
        (
            "walk, lights and a jog",
            [
                Bout(cadence: 0, seconds: 5, impact: 0), Bout(cadence: 105, seconds: 120, impact: 2.8),
                Bout(cadence: 0, seconds: 40, impact: 0), Bout(cadence: 118, seconds: 90, impact: 3.2),
                Bout(cadence: 160, seconds: 120, impact: 7.5), Bout(cadence: 0, seconds: 30, impact: 0),
                Bout(cadence: 100, seconds: 60, impact: 2.5),
            ]
        ),
        (
            "intervals",
            [
                Bout(cadence: 0, seconds: 5, impact: 0), Bout(cadence: 185, seconds: 60, impact: 10),
                Bout(cadence: 120, seconds: 90, impact: 3.5), Bout(cadence: 185, seconds: 60, impact: 10),
                Bout(cadence: 120, seconds: 90, impact: 3.5),
            ]
        ),
        ("standing, fidgeting", [Bout(cadence: 0, seconds: 300, impact: 0)]),
    ]

    public static func recording(
        _ bouts: [Bout],
        placement: Placement,
        rate: Double = 100,
        seed: UInt64
    ) -> Recording {
        var rng = SplitMix(seed: 7000 + seed)
        // The true steps: each bout's, with 3 % jitter; which foot alternates.
        var steps: [(time: Double, impact: Double, left: Bool, period: Double)] = []
        var t = 0.0
        var left = true
        for bout in bouts {
            let end = t + bout.seconds
            guard bout.cadence > 0 else {
                t = end
                continue
            }
            let period = 60 / bout.cadence
            var next = t + period * 0.5
            while next < end {
                steps.append((next, bout.impact * (1 + 0.1 * rng.gaussian()), left, period))
                left.toggle()
                next += period * (1 + 0.03 * rng.gaussian())
            }
            t = end
        }
        let duration = t
        let noise: Double
        let damping: Double
        switch placement {
        case .hip: (noise, damping) = (0.25, 1.0)
        case .wrist: (noise, damping) = (0.45, 0.55)
        case .ankle: (noise, damping) = (0.35, 1.0)
        }
        var samples: [AccelerationSample] = []
        samples.reserveCapacity(Int(duration * rate) + 1)
        // The device's tilt: a fixed turn plus a slow drift (a watch on a moving arm turns more).
        let tilt = 0.6 * rng.uniform()
        let turn = 2 * Double.pi * rng.uniform()
        var index = 0
        var fidget = 0.0
        // Which bouts move: their motion's noise (the body's vibration, the arm's wobble); standing,
        // the sensor's own (a BMI160's is about 0.02 m/s² at 100 Hz) and a slow sway.
        var boutEnds: [(end: Double, moving: Bool)] = []
        var elapsed = 0.0
        for bout in bouts {
            elapsed += bout.seconds
            boutEnds.append((elapsed, bout.cadence > 0))
        }
        var bout = 0
        for i in 0..<Int(duration * rate) {
            let time = Double(i) / rate
            while bout + 1 < boutEnds.count, time >= boutEnds[bout].end { bout += 1 }
            let shake = boutEnds.isEmpty || boutEnds[bout].moving ? noise : 0.03
            while index + 1 < steps.count, steps[index + 1].time <= time { index += 1 }
            var vertical = 0.0
            var forward = 0.0
            // The steps near this instant: their pulses and the body's bounce between them.
            let near = steps.isEmpty ? 0..<0 : max(0, index - 1)..<min(steps.count, index + 3)
            for j in near {
                let step = steps[j]
                let dt = time - step.time
                guard abs(dt) < 1.5 * step.period else { continue }
                let phase: Double = dt / step.period
                let strike: Double = exp(-0.5 * pow(dt / 0.03, 2))
                let envelope: Double = exp(-0.5 * phase * phase)
                let bounce: Double = 0.35 * cos(2 * Double.pi * phase) * envelope
                switch placement {
                case .hip:
                    vertical += step.impact * (strike + bounce)
                case .wrist:
                    vertical += damping * step.impact * (0.7 * strike + bounce)
                    // The arm's swing peaks once a stride, forward and back: at the step rate.
                    let side: Double = step.left ? 1 : -1
                    let swing: Double = sin(Double.pi * phase) * envelope
                    forward += 0.25 * step.impact * side * swing
                case .ankle:
                    let own = step.left
                    let size = own ? 2.2 : 0.25
                    vertical += size * step.impact * strike
                    if own {
                        // The swing: the foot's forward rush before its strike.
                        forward += 0.8 * step.impact * exp(-0.5 * pow((dt + 0.35 * step.period) / 0.08, 2))
                    }
                }
            }
            // Standing, the hands and the weight shift now and then.
            fidget += (rng.gaussian() * 0.004 - fidget * 0.01)
            let wobble = tilt + 0.15 * sin(2 * Double.pi * time / 7.3)
            let up = 9.80665 + vertical + fidget
            let ax = forward * cos(turn) + up * sin(wobble) + shake * rng.gaussian()
            let ay = forward * sin(turn) + shake * rng.gaussian()
            let az = up * cos(wobble) + shake * rng.gaussian()
            samples.append(AccelerationSample(time: time, x: ax, y: ay, z: az))
        }
        return Recording(samples: samples, steps: steps.map(\.time))
    }
}
