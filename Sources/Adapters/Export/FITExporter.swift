import FITFormat
import TrackCore

/// A FIT activity file from our own encoder (no Swift FIT library exists): file_id, device_info,
/// timer events around every pause, a record per point, hrv messages with every RR interval (for
/// HRV tools such as Kubios), a lap per split (and the remainder), the session and the activity;
/// with a course followed, a course message with its name.
/// The header's size and both CRCs are written once the data is complete.
public struct FITExporter: Exporter {
    private var smoothed = true
    private var sport: UInt64 = 0
    private var stopped = false
    private var pendingRR: [UInt64] = []
    private var laps = LapTracker()
    /// sub_sport: treadmill (1) for a treadmill session, generic (0) otherwise.
    private var subSport: UInt64 = 0
    public private(set) var records = 0

    public init() {}

    public mutating func begin(_ session: ExportSession, into file: OutputFile) throws(ExportError) {
        smoothed = session.smoothed
        sport = Self.sport(session.activity)
        subSport = session.distanceSource == .treadmill ? 1 : 0
        try file.write([UInt8](repeating: 0, count: 14))
        let created = FIT.time(session.startedAt)
        try file.write(FIT.fileID.definition)
        try file.write(FIT.fileID.data([4, 255, 1, 1, created]))
        try file.write(FIT.deviceInfo.definition)
        try file.write(FIT.deviceInfo.data([created, 0, 255, 1, 100]))
        if let name = session.course {
            let course = FIT.course(named: name)
            try file.write(course.definition)
            try file.write(course.data(sport))
        }
        try file.write(FIT.event.definition)
        try file.write(FIT.event.data([created, 0, 0]))
        for message in [FIT.record, FIT.hrv, FIT.lap] { try file.write(message.definition) }
    }

    public mutating func take(_ item: ExportItem, into file: OutputFile) throws(ExportError) {
        if let lap = laps.take(item) { try write(lap, into: file) }
        switch item {
        case .point(let point):
            guard !stopped, point.isAccepted, let position = smoothed ? point.smoothed : point.raw else { return }
            try file.write(
                FIT.record.data([
                    FIT.time(point.time), FIT.semicircles(position.latitude), FIT.semicircles(position.longitude),
                    FIT.scaled(point.distance, 100), point.heartRate.map(UInt64.init),
                    point.speed.flatMap { FIT.scaled($0, 1000) }, point.altitude.flatMap { FIT.scaled($0 + 500, 5) },
                    point.cadence.map { UInt64($0 / 2) },
                ])
            )
            records += 1
        case .stride(let stride):
            // Indoors: a record with no position.
            guard !stopped else { return }
            try file.write(
                FIT.record.data([
                    FIT.time(stride.time), nil, nil, FIT.scaled(stride.distance, 100),
                    stride.heartRate.map(UInt64.init), stride.speed.flatMap { FIT.scaled($0, 1000) }, nil,
                    stride.cadence.map { UInt64($0 / 2) },
                ])
            )
            records += 1
        case .beat(let beat):
            pendingRR += beat.rrIntervals.compactMap { FIT.scaled($0, 1000) }
            while pendingRR.count >= 5 {
                try file.write(FIT.hrv.data(pendingRR.prefix(5).map { $0 }))
                pendingRR.removeFirst(5)
            }
        case .stop(let at):
            stopped = true
            try file.write(FIT.event.data([FIT.time(at), 0, 4]))
        case .start(let at):
            stopped = false
            try file.write(FIT.event.data([FIT.time(at), 0, 0]))
        case .split:
            break
        }
    }

    public mutating func end(_ totals: ExportTotals, into file: OutputFile) throws(ExportError) {
        if !pendingRR.isEmpty { try file.write(FIT.hrv.data(pendingRR.map { $0 })) }
        let summary = totals.summary
        let end = totals.lastTime
        try file.write(FIT.event.data([FIT.time(end), 0, 4]))
        if let lap = laps.finish(totals) { try write(lap, into: file) }
        let start = totals.firstTime
        try file.write(FIT.session.definition)
        try file.write(
            FIT.session.data([
                FIT.time(end), FIT.time(start), FIT.scaled(summary.elapsed, 1000), FIT.scaled(summary.moving, 1000),
                FIT.scaled(summary.distance, 100), sport,
                summary.heartRate?.average.map { UInt64($0.rounded()) },
                summary.heartRate?.maximum.map(UInt64.init), UInt64(laps.count), 0, 8, 1, 0,
                summary.moving > 0 ? FIT.scaled(summary.distance / summary.moving, 1000) : nil,
                FIT.scaled(summary.maxSpeed, 1000), subSport,
                summary.elevation.map { UInt64(min(65534, max(0, $0.gain).rounded())) },
                summary.elevation.map { UInt64(min(65534, max(0, $0.loss).rounded())) },
                summary.energy.map { UInt64(min(65534, max(0, $0.kilocalories).rounded())) },
                strides(summary.steps),
            ])
        )
        try file.write(FIT.activity.definition)
        try file.write(FIT.activity.data([FIT.time(end), FIT.scaled(summary.moving, 1000), 1, 0, 26, 1]))
        try finish(file)
    }

    private func write(_ lap: ExportLap, into file: OutputFile) throws(ExportError) {
        try file.write(
            FIT.lap.data([
                FIT.time(lap.end), FIT.time(lap.start), FIT.scaled(lap.end - lap.start, 1000),
                FIT.scaled(lap.timer, 1000),
                FIT.scaled(lap.distance, 100), lap.averageHeartRate.map { UInt64($0.rounded()) },
                lap.maximumHeartRate.map(UInt64.init), UInt64(lap.index), 9, 1, lap.bySplit ? 2 : 7, sport,
                lap.maximumSpeed.flatMap { FIT.scaled($0, 1000) },
                lap.kilocalories.map { UInt64(min(65534, $0.rounded())) },
                strides(lap.steps),
            ])
        )
    }

    /// The header (with the data's size and its own CRC), then the file CRC over all of it.
    private func finish(_ file: OutputFile) throws(ExportError) {
        try file.patch([], at: 0)
        let dataSize = file.written - 14
        var header: [UInt8] = [14, 0x20, 0x54, 0x08]
        for shift in 0..<4 { header.append(UInt8(truncatingIfNeeded: dataSize >> (8 * shift))) }
        header += Array(".FIT".utf8)
        var headerCRC = FITCRC()
        headerCRC.add(header)
        header += [UInt8(headerCRC.value & 0xFF), UInt8(headerCRC.value >> 8)]
        try file.patch(header, at: 0)
        var crc = FITCRC()
        try file.readBack { bytes in crc.add(bytes) }
        try file.write([UInt8(crc.value & 0xFF), UInt8(crc.value >> 8)])
    }

    /// total_cycles: FIT's total_strides on a run or a walk (a stride is two steps, as its cadence
    /// is strides a minute); nothing on a ride, where the field counts pedal strokes.
    private func strides(_ steps: Int?) -> UInt64? {
        guard let steps, sport != 2 else { return nil }
        return UInt64(max(0, steps) / 2)
    }

    private static func sport(_ activity: Activity) -> UInt64 {
        switch activity {
        case .running: 1
        case .cycling: 2
        case .walking: 11
        }
    }
}
