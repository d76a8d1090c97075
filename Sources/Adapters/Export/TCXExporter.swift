import TrackCore
import UTCFormat
import XMLEscaping

/// Garmin's TrainingCenterDatabase v2: an Activity (Sport, Id), one Lap per split with its totals
/// in the schema's order, Trackpoints (Time, Position, DistanceMeters: ours, cumulative,
/// HeartRateBpm) in a Track per moving stretch, the course followed in the Notes, and the Creator.
/// The laps come from a first pass (`LapCollector`): TCX puts a lap's totals before its points.
public struct TCXExporter: Exporter {
    private let laps: [ExportLap]
    private var lap = -1
    private var inTrack = false
    private var stopped = false
    private var smoothed = true
    private var course: String?
    public private(set) var points = 0

    public init(laps: [ExportLap]) {
        self.laps = laps
    }

    public mutating func begin(_ session: ExportSession, into file: OutputFile) throws(ExportError) {
        smoothed = session.smoothed
        course = session.course
        let sport =
            switch session.activity {
            case .running: "Running"
            case .cycling: "Biking"
            case .walking: "Other"
            }
        try file.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2 \
            http://www.garmin.com/xmlschemas/TrainingCenterDatabasev2.xsd">
             <Activities>
              <Activity Sport="\(sport)">
               <Id>\(UTCTime.text(session.startedAt))</Id>

            """
        )
        try openLap(0, file)
    }

    public mutating func take(_ item: ExportItem, into file: OutputFile) throws(ExportError) {
        switch item {
        case .point(let point):
            guard !stopped, point.isAccepted, let position = smoothed ? point.smoothed : point.raw else { return }
            while lap + 1 < laps.count, point.time > laps[lap].end { try openLap(lap + 1, file) }
            if !inTrack {
                try file.write("     <Track>\n")
                inTrack = true
            }
            var line =
                "      <Trackpoint><Time>\(UTCTime.text(point.time))</Time><Position><LatitudeDegrees>"
                + "\(Decimals.text(position.latitude, 7))</LatitudeDegrees><LongitudeDegrees>"
                + "\(Decimals.text(position.longitude, 7))</LongitudeDegrees></Position>"
                + (point.altitude.map { "<AltitudeMeters>\(Decimals.text($0, 2))</AltitudeMeters>" } ?? "")
                + "<DistanceMeters>\(Decimals.text(point.distance, 2))</DistanceMeters>"
            if let bpm = point.heartRate { line += "<HeartRateBpm><Value>\(bpm)</Value></HeartRateBpm>" }
            try file.write(line + Self.extensions(speed: nil, cadence: point.cadence) + "</Trackpoint>\n")
            points += 1
        case .stride(let stride):
            // Indoors: a trackpoint with no position, its speed and cadence in Garmin's extension.
            guard !stopped else { return }
            while lap + 1 < laps.count, stride.time > laps[lap].end { try openLap(lap + 1, file) }
            if !inTrack {
                try file.write("     <Track>\n")
                inTrack = true
            }
            var line =
                "      <Trackpoint><Time>\(UTCTime.text(stride.time))</Time>"
                + "<DistanceMeters>\(Decimals.text(stride.distance, 2))</DistanceMeters>"
            if let bpm = stride.heartRate { line += "<HeartRateBpm><Value>\(bpm)</Value></HeartRateBpm>" }
            try file.write(line + Self.extensions(speed: stride.speed, cadence: stride.cadence) + "</Trackpoint>\n")
            points += 1
        case .stop:
            stopped = true
            try closeTrack(file)
        case .start:
            stopped = false
        case .beat, .split:
            break
        }
    }

    public mutating func end(_ totals: ExportTotals, into file: OutputFile) throws(ExportError) {
        while lap + 1 < laps.count { try openLap(lap + 1, file) }
        try closeLap(file)
        // The schema's order: the laps, then Notes, then the Creator.
        if let course { try file.write("   <Notes>Course: \(XMLText.escaped(course))</Notes>\n") }
        try file.write(
            """
               <Creator xsi:type="Device_t"><Name>wearbridge</Name><UnitId>0</UnitId><ProductID>0</ProductID>\
            <Version><VersionMajor>1</VersionMajor><VersionMinor>0</VersionMinor></Version></Creator>
              </Activity>
             </Activities>
            </TrainingCenterDatabase>

            """
        )
    }

    private mutating func openLap(_ index: Int, _ file: OutputFile) throws(ExportError) {
        try closeLap(file)
        lap = index
        guard index < laps.count else { return }
        let lap = laps[index]
        var text = "   <Lap StartTime=\"\(UTCTime.text(lap.start))\">"
        text += "<TotalTimeSeconds>\(Decimals.text(lap.timer, 3))</TotalTimeSeconds>"
        text += "<DistanceMeters>\(Decimals.text(lap.distance, 2))</DistanceMeters>"
        if let speed = lap.maximumSpeed { text += "<MaximumSpeed>\(Decimals.text(speed, 3))</MaximumSpeed>" }
        // The schema requires it: 0, which readers take as unknown, when the session costs no energy.
        text += "<Calories>\(Int((lap.kilocalories ?? 0).rounded()))</Calories>"
        if let bpm = lap.averageHeartRate {
            text += "<AverageHeartRateBpm><Value>\(Int(bpm.rounded()))</Value></AverageHeartRateBpm>"
        }
        if let bpm = lap.maximumHeartRate { text += "<MaximumHeartRateBpm><Value>\(bpm)</Value></MaximumHeartRateBpm>" }
        text += "<Intensity>Active</Intensity><TriggerMethod>\(lap.bySplit ? "Distance" : "Manual")</TriggerMethod>\n"
        try file.write(text)
    }

    private mutating func closeLap(_ file: OutputFile) throws(ExportError) {
        guard lap >= 0, lap < laps.count else { return }
        try closeTrack(file)
        // Garmin's ActivityExtension v2 carries a lap's steps (an unsigned short).
        if let steps = laps[lap].steps {
            try file.write(
                "    <Extensions><LX xmlns=\"http://www.garmin.com/xmlschemas/ActivityExtension/v2\">"
                    + "<Steps>\(min(65535, max(0, steps)))</Steps></LX></Extensions>\n"
            )
        }
        try file.write("   </Lap>\n")
    }

    /// Garmin's ActivityExtension v2: speed (m/s) and a runner's cadence (per leg, as Garmin writes it).
    private static func extensions(speed: Double?, cadence: Int?) -> String {
        guard speed != nil || cadence != nil else { return "" }
        return "<Extensions><TPX xmlns=\"http://www.garmin.com/xmlschemas/ActivityExtension/v2\">"
            + (speed.map { "<Speed>\(Decimals.text($0, 3))</Speed>" } ?? "")
            + (cadence.map { "<RunCadence>\($0 / 2)</RunCadence>" } ?? "")
            + "</TPX></Extensions>"
    }

    private mutating func closeTrack(_ file: OutputFile) throws(ExportError) {
        guard inTrack else { return }
        try file.write("     </Track>\n")
        inTrack = false
    }
}
