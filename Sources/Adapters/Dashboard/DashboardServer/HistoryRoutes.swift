import DashboardCore
import Export
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import PhoneServer
import TrackCore

/// `GET /api/sessions` and `GET /api/sessions/{id}/export/{format}`: every session the phone holds,
/// and its files made by the CLI's exporters (`ExportRun`) from the backfilled copy, written to a
/// temporary file off the request's thread, then streamed with its length so the page shows progress.
struct HistoryRoutes: Sendable {
    let inbox: Inbox
    let logger: Logger

    func list() throws -> Response {
        let sessions = try inbox.sessions.records().map { record in
            SessionItem(
                wearable: record.wearable,
                session: record.session,
                activity: record.started?.activity,
                // A source this phone does not know (a newer wearable's) is null, never guessed.
                distanceSource: record.started.flatMap {
                    DistanceSource(rawValue: $0.distanceSource.isEmpty ? "gps" : $0.distanceSource)
                },
                startedAtMs: record.started.map { $0.startedAtMs },
                ended: record.ended != nil,
                backfill: record.backfill,
                backfillRows: record.backfillRows,
                exportable: record.ended != nil && record.backfill == .complete,
                figures: record.ended.map { ended in
                    SessionItem.Figures(
                        distanceM: ended.distanceM,
                        elapsedS: ended.elapsedS,
                        movingS: ended.movingS,
                        avgHeartRate: ended.avgHeartRate == 0 ? nil : Int(ended.avgHeartRate),
                        maxHeartRate: ended.maxHeartRate == 0 ? nil : Int(ended.maxHeartRate),
                        splits: Int(ended.splits),
                        energyKcal: ended.energyFigure,
                        elevationGainM: ended.gainFigure,
                        elevationLossM: ended.lossFigure,
                        steps: ended.stepsFigure
                    )
                }
            )
        }
        return try JSONText.response(SessionList(sessions: sessions))
    }

    func export(session: String, format formatText: String) async throws -> Response {
        guard let format = ExportFormat(rawValue: formatText) else {
            return JSONText.error(
                .badRequest,
                "unknown_format",
                "format is gpx, tcx, fit or csv, not \"\(formatText.prefix(10))\""
            )
        }
        guard session.utf8.count <= 64, let start = try inbox.sessions.start(session) else {
            return JSONText.error(.notFound, "unknown_session", "the phone holds no session \(session.prefix(64))")
        }
        guard try inbox.backfill.state(session: session)?.state == .complete else {
            return JSONText.error(
                .conflict,
                "not_backfilled",
                "session \(session) is not completely backfilled yet: its file can be made once it is"
            )
        }
        let path = (NSTemporaryDirectory() as NSString)
            .appendingPathComponent("wearbridge-dashboard-\(UUID().uuidString).\(format.rawValue)")
        let inbox = self.inbox
        do {
            try await NIOThreadPool.singleton.runIfActive {
                let file = try OutputFile(target: path)
                _ = try ExportRun.write(
                    format,
                    ExportSession(
                        id: session,
                        activity: start.activity,
                        startedAt: start.startedAt,
                        smoothed: true,
                        distanceSource: start.distanceSource,
                        footpodFactors: start.footpodFactors,
                        course: start.course
                    ),
                    journal: { body in try inbox.sessions.journal(session: session, body) },
                    into: file
                )
                try file.commit(overwrite: true)
            }
        } catch let error as ExportError {
            unlink(path)
            logger.warning("a dashboard export failed", metadata: ["session": "\(session)", "error": "\(error)"])
            return JSONText.error(.unprocessableContent, "export_failed", "\(error)")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        unlink(path)  // the open descriptor keeps it until the stream ends; nothing is left behind
        var info = stat()
        guard descriptor >= 0, fstat(descriptor, &info) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            return JSONText.error(.internalServerError, "export_failed", "the export's file could not be read back")
        }
        let size = Int(info.st_size)
        let types: [ExportFormat: String] = [
            .gpx: "application/gpx+xml", .tcx: "application/vnd.garmin.tcx+xml", .fit: "application/vnd.ant.fit",
            .csv: "text/csv; charset=utf-8",
        ]
        return Response(
            status: .ok,
            headers: [
                .contentType: types[format] ?? "application/octet-stream",
                .contentDisposition: "attachment; filename=\"\(session).\(format.rawValue)\"",
                .cacheControl: "no-store",
            ],
            body: .init(contentLength: size) { writer in
                defer { close(descriptor) }
                var chunk = [UInt8](repeating: 0, count: 64 * 1024)
                while true {
                    let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count <= 0 { break }
                    try await writer.write(ByteBuffer(bytes: chunk[0..<count]))
                }
                try await writer.finish(nil)
            }
        )
    }
}
