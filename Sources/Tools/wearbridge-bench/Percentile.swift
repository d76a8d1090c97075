extension Array where Element == Double {
    /// The value at fraction `p` of the samples in order (nearest rank); NaN when there are none.
    /// Every latency figure of the benchmarks reads its p50 and p99 here.
    func percentile(_ p: Double) -> Double {
        guard !isEmpty else { return .nan }
        let sorted = self.sorted()
        return sorted[Swift.min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }
}
