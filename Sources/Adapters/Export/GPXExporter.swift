import UTCFormat
import XMLEscaping

/// GPX 1.1 with Garmin's TrackPointExtension v1 (heart rate), as Strava documents it: one
/// `trkseg` per moving stretch (a pause closes it), every point with its UTC time (to the
/// millisecond when the receiver gives fractions) and its elevation when gpsd gave one. The smoothed track by default, the one the
/// distance was measured on; or the receiver's raw positions. The course followed, if any, is the
/// track's description.
public struct GPXExporter: Exporter {
    private var smoothed = true
    private var inSegment = false
    private var stopped = false
    public private(set) var points = 0

    public init() {}

    public mutating func begin(_ session: ExportSession, into file: OutputFile) throws(ExportError) {
        smoothed = session.smoothed
        try file.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="wearbridge" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1" \
            xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd \
            http://www.garmin.com/xmlschemas/TrackPointExtension/v1 http://www.garmin.com/xmlschemas/TrackPointExtensionv1.xsd">
             <metadata>
              <name>wearbridge \(session.activity.rawValue) \(session.id)</name>
              <time>\(UTCTime.text(session.startedAt))</time>
             </metadata>
             <trk>
              <name>\(session.activity.rawValue) \(UTCTime.text(session.startedAt))</name>
            \(session.course.map { "  <desc>Course: \(XMLText.escaped($0))</desc>\n" } ?? "")\
              <type>\(session.activity.rawValue)</type>

            """
        )
    }

    public mutating func take(_ item: ExportItem, into file: OutputFile) throws(ExportError) {
        switch item {
        case .point(let point):
            guard !stopped, point.isAccepted, let position = smoothed ? point.smoothed : point.raw else { return }
            if !inSegment {
                try file.write("  <trkseg>\n")
                inSegment = true
            }
            var line =
                "   <trkpt lat=\"\(Decimals.text(position.latitude, 7))\" lon=\"\(Decimals.text(position.longitude, 7))\">"
                + (point.altitude.map { "<ele>\(Decimals.text($0, 2))</ele>" } ?? "")
                + "<time>\(UTCTime.text(point.time))</time>"
            if point.heartRate != nil || point.cadence != nil {
                // The schema's order: hr, then cad (per leg, as Garmin writes a runner's cadence).
                line +=
                    "<extensions><gpxtpx:TrackPointExtension>"
                    + (point.heartRate.map { "<gpxtpx:hr>\($0)</gpxtpx:hr>" } ?? "")
                    + (point.cadence.map { "<gpxtpx:cad>\($0 / 2)</gpxtpx:cad>" } ?? "")
                    + "</gpxtpx:TrackPointExtension></extensions>"
            }
            try file.write(line + "</trkpt>\n")
            points += 1
        case .stop:
            stopped = true
            try closeSegment(file)
        case .start:
            stopped = false
        case .beat, .split, .stride:
            // Indoors there is no track: GPX has nothing else to carry.
            break
        }
    }

    public mutating func end(_ totals: ExportTotals, into file: OutputFile) throws(ExportError) {
        try closeSegment(file)
        try file.write(" </trk>\n</gpx>\n")
    }

    private mutating func closeSegment(_ file: OutputFile) throws(ExportError) {
        guard inSegment else { return }
        try file.write("  </trkseg>\n")
        inSegment = false
    }
}
