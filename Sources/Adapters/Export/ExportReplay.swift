import HeartRate
import SessionCore
import TrackCore

/// Replays a logged session's inputs through the session logic, one at a time, and hands each
/// fix, beat and pause to an exporter as it happens: the exported distance is the distance the
/// session measured (the core is deterministic), and no session is ever held whole.
public struct ExportReplay {
    /// A beat older than this (s) says nothing about the heart rate at a fix.
    public static let heartRateHold = 5.0

    private var controller: SessionController
    /// The last beat's rate and the footpod's last cadence, each with its time.
    private var lastBeat: (time: Double, value: Int)?
    private var lastCadence: (time: Double, value: Int)?
    private var stopped = false
    public private(set) var firstTime: Double?
    public private(set) var lastTime: Double?

    /// `footpod`: the factors the session applied to its footpod (indoors), as its log keeps them.
    /// `energy`: what the session's energy was costed by, as its log keeps it.
    public init(
        activity: Activity,
        distanceSource: DistanceSource = .gps,
        footpod: StrideFactors? = nil,
        energy: EnergySettings? = nil
    ) {
        // Zones only shape time in zone, which no format carries; average and maximum need the stats.
        let indoor = distanceSource == .gps ? nil : distanceSource
        let configuration = SessionController.Configuration(
            activity: activity,
            abandonAfter: .infinity,
            heartRateZones: HeartRateZones(maxHeartRate: 190),
            indoorSource: indoor,
            footpodFactors: footpod,
            sessionEnergy: energy
        )
        controller = SessionController(configuration: configuration, ids: SessionIDGenerator(seed: 1))
        var output = SessionOutput()
        _ = controller.handle(
            .start,
            id: "export",
            activity: activity,
            indoor: indoor != nil,
            receivedAt: 0,
            systemTime: 0,
            into: &output
        )
    }

    /// The session's figures as replayed so far (after the last input: the session's own).
    public var summary: SessionSummary? { controller.session?.track.summary }

    /// Takes one logged input (with the GPS time it carries); `emit` gets what it produced.
    public mutating func take(
        _ entry: SessionController.JournalEntry,
        time: Double?,
        emit: (ExportItem) throws -> Void
    )
        rethrows
    {
        var output = SessionOutput()
        switch entry {
        case .fix(let fix):
            controller.ingest(fix, into: &output)
            // Moving again at this fix: the fix belongs to the new stretch, so the start comes first.
            try follow(output, emit, starts: true)
            for row in output.rows {
                guard case .fix(_, _, let fix, let verdict) = row, let fixTime = fix.time?.seconds else { continue }
                firstTime = firstTime ?? fixTime
                lastTime = fixTime
                var point = ExportPoint(
                    time: fixTime,
                    raw: fix.position,
                    altitude: fix.altitude,
                    speed: fix.speed,
                    error: fix.horizontalError,
                    verdict: "accepted",
                    distance: controller.session?.track.distance ?? 0
                )
                switch verdict {
                case .accepted(let smoothed): point.smoothed = smoothed
                case .rejected(let reason): point.verdict = reason.rawValue
                }
                point.heartRate = held(lastBeat, at: fixTime)
                point.cadence = held(lastCadence, at: fixTime)
                try emit(.point(point))
            }
            try follow(output, emit, starts: false)
        case .heartRate(let sample):
            controller.heartRate(sample, into: &output)
            if let time, sample.countsForFigures { lastBeat = (time, sample.bpm) }
            try emit(
                .beat(
                    ExportBeat(time: time, bpm: sample.bpm, rrIntervals: sample.rrIntervals.map { Double($0) / 1024 })
                )
            )
        case .speed(let sample):
            controller.speed(sample, into: &output)
            guard let at = sample.time else { break }
            if let cadence = sample.reading.cadence { lastCadence = (at, cadence) }
            guard let session = controller.session, sample.source == session.track.distanceSource else { break }
            // Moving again at this reading: it belongs to the new stretch, so the start comes first.
            try follow(output, emit, starts: true)
            firstTime = firstTime ?? at
            lastTime = at
            try emit(
                .stride(
                    ExportStride(
                        time: at,
                        distance: session.track.distance,
                        speed: session.track.currentSpeed,
                        cadence: held(lastCadence, at: at),
                        heartRate: held(lastBeat, at: at)
                    )
                )
            )
            try follow(output, emit, starts: false)
        case .pressure(let sample):
            controller.pressure(sample, into: &output)
        case .command(.start, _), .command(.end, _):
            // Begun at `init`; left open at the end, so that its figures can still be read.
            break
        case .command(let command, let id):
            _ = controller.handle(command, id: id, receivedAt: 0, systemTime: 0, into: &output)
            try follow(output, emit, starts: true)
            try follow(output, emit, starts: false)
        }
    }

    /// A value logged at most `heartRateHold` before `time`.
    private func held(_ logged: (time: Double, value: Int)?, at time: Double) -> Int? {
        guard let logged, time >= logged.time, time - logged.time <= Self.heartRateHold else { return nil }
        return logged.value
    }

    /// Pauses and resumes, by hand or auto, as timer stops and starts (`starts`: only the
    /// starts; else the stops and the splits).
    private mutating func follow(_ output: SessionOutput, _ emit: (ExportItem) throws -> Void, starts: Bool) rethrows {
        for announcement in output.announcements {
            let at = announcement.time?.seconds ?? lastTime ?? 0
            switch announcement.event {
            case .paused, .track(.autoPaused):
                guard !starts, !stopped else { continue }
                stopped = true
                try emit(.stop(at: at))
            case .resumed, .track(.autoResumed):
                guard starts, stopped else { continue }
                stopped = false
                try emit(.start(at: at))
            case .track(.split(let split)):
                guard !starts else { continue }
                let track = controller.session?.track
                try emit(.split(split, at: at, energy: track?.energy?.joules, steps: track?.stepCount))
            default:
                continue
            }
        }
    }
}
