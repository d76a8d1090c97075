/// What counts as a stretch worth learning from, and the pace bands a factor is kept for. Named
/// here, not scattered: each is a judgement about footpods and GPS that a test pins down.
public struct CalibrationSettings: Sendable, Equatable {
    /// A stretch is straight while the chord from its start is at least this share of the GPS path
    /// (corners shorten the chord; a footpod's stride does not change on them, GPS's error does).
    public var straightness = 0.985
    /// GPS's error at a stretch's two ends may shorten its chord by this much (m) without a bend: a
    /// stretch is judged bent only when its chord falls short of `straightness` by more. Without it,
    /// a few decimetres of noise end a stretch in its first tens of metres, again and again.
    public var endNoise = 3.0
    /// A stretch is steady while the footpod's speed stays within this share of the stretch's mean.
    public var steadiness = 0.12
    /// Below this (m/s) the runner is stopped or shuffling: the stretch ends.
    public var slowest = 1.2
    /// Shorter stretches are not learnt from: GPS's few metres of error would be a large share.
    public var shortest = 120.0
    /// ...nor briefer ones (s).
    public var briefest = 30.0
    /// Upper bounds (m/s) of the pace bands, slowest first; the last band is open above.
    public var bandEdges: [Double] = [2.6, 3.3, 4.0]
    /// A band keeps a factor of its own only with this many stretches, and only when it differs
    /// from the other bands' by more than their combined standard error times `bandSignificance`
    /// and by more than `bandDifference` (a smaller change of stride is not worth a factor).
    public var bandStretches = 4
    public var bandSignificance = 2.0
    public var bandDifference = 0.005
    /// A ratio further than this from 1 is not a footpod's error but a wrong pairing (a swap, a
    /// GPS jump): not learnt from.
    public var implausible = 0.25

    public init() {}

    /// The band of a speed (m/s): 0 for the slowest.
    public func band(of speed: Double) -> Int {
        bandEdges.firstIndex { speed < $0 } ?? bandEdges.count
    }

    /// A speed inside `band` (m/s): between its edges, or 0.1 m/s beyond the only one it has;
    /// what asks `StrideCalibrator.factor(forSpeed:)` for a band's factor.
    public func speed(inBand band: Int) -> Double {
        let from = band > 0 && band <= bandEdges.count ? bandEdges[band - 1] : nil
        let below = band >= 0 && band < bandEdges.count ? bandEdges[band] : nil
        switch (from, below) {
        case (let from?, let below?): return (from + below) / 2
        case (let from?, nil): return from + 0.1
        case (nil, let below?): return below - 0.1
        case (nil, nil): return 0
        }
    }
}
