/// A first pass for TCX, whose laps carry their totals before their track points: only the laps.
public struct LapCollector: Exporter {
    private var tracker = LapTracker()
    public private(set) var laps: [ExportLap] = []

    public init() {}

    public mutating func begin(_ session: ExportSession, into file: OutputFile) throws(ExportError) {}

    public mutating func take(_ item: ExportItem, into file: OutputFile) throws(ExportError) {
        if let lap = tracker.take(item) { laps.append(lap) }
    }

    public mutating func end(_ totals: ExportTotals, into file: OutputFile) throws(ExportError) {
        if let lap = tracker.finish(totals) { laps.append(lap) }
    }
}
