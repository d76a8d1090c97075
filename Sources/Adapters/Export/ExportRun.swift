import SessionCore
import TrackCore

/// The formats, and one export from a journal source to a file: the wearable's data log and the
/// phone's backfilled copy both feed it, so both give the same file.
public enum ExportFormat: String, Sendable, CaseIterable {
    case gpx, tcx, fit, csv
}

/// A session's logged inputs in sequence order, each with the GPS time it carries: the source
/// calls the body once per input.
public typealias JournalSource = ((SessionController.JournalEntry, Double?) throws -> Void) throws -> Void

public enum ExportRun {
    /// Writes `session` as `format` into `file` (not committed); the replayed summary.
    public static func write(
        _ format: ExportFormat,
        _ session: ExportSession,
        journal: JournalSource,
        into file: OutputFile,
        beats: Bool = false
    ) throws -> SessionSummary {
        switch format {
        case .gpx:
            var exporter = GPXExporter()
            return try pass(session, journal, &exporter, file)
        case .fit:
            var exporter = FITExporter()
            return try pass(session, journal, &exporter, file)
        case .csv:
            var exporter = CSVExporter(beats: beats)
            return try pass(session, journal, &exporter, file)
        case .tcx:
            // TCX gives a lap's totals before its points: a first pass finds the laps.
            var laps = LapCollector()
            _ = try pass(session, journal, &laps, file)
            var exporter = TCXExporter(laps: laps.laps)
            return try pass(session, journal, &exporter, file)
        }
    }

    /// One pass over the journal: the replayed items to `exporter`, then its totals.
    private static func pass<Format: Exporter>(
        _ session: ExportSession,
        _ journal: JournalSource,
        _ exporter: inout Format,
        _ file: OutputFile
    ) throws -> SessionSummary {
        var replay = ExportReplay(
            activity: session.activity,
            distanceSource: session.distanceSource,
            footpod: session.footpodFactors,
            energy: session.energy
        )
        try exporter.begin(session, into: file)
        try journal { entry, time in
            try replay.take(entry, time: time) { item in try exporter.take(item, into: file) }
        }
        guard let summary = replay.summary, summary.accepted > 0, let first = replay.firstTime,
            let last = replay.lastTime
        else { throw ExportError.noPoints(session.id) }
        try exporter.end(ExportTotals(summary: summary, firstTime: first, lastTime: last), into: file)
        return summary
    }
}
