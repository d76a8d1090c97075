import SessionCore
import Store
import TrackCore

/// One JSON line per fix with the core's verdict: how a field tester sees what the gate and filter did.
enum FixTrace {
    static func print(_ fix: Fix, _ outcome: FixOutcome, _ session: TrackSession) {
        var fields: [String] = []
        if let time = fix.time { fields.append("\"t\":\(time.seconds)") }
        fields.append("\"mode\":\(fix.mode)")
        switch outcome.verdict {
        case .accepted(let point):
            fields.append("\"verdict\":\"accepted\"")
            fields.append("\"lat\":\(point.position.latitude),\"lon\":\(point.position.longitude)")
        case .rejected(let reason):
            fields.append("\"verdict\":\"\(reason.rawValue)\"")
        }
        if let eph = fix.gatingError { fields.append("\"err\":\(eph)") }
        if let speed = fix.speed { fields.append("\"doppler\":\(speed)") }
        if let eps = fix.speedError { fields.append("\"eps\":\(eps)") }
        if let track = fix.track { fields.append("\"track\":\(track)") }
        if let speed = session.currentSpeed { fields.append("\"speed\":\(speed)") }
        fields.append("\"distance\":\(session.distance)")
        fields.append("\"still\":\(session.isStill),\"paused\":\(session.isAutoPaused)")
        if !outcome.events.isEmpty {
            // The events by the names the data log gives them.
            let names = outcome.events.map { "\"\(SessionEvent.track($0).storedKind)\"" }
            fields.append("\"events\":[\(names.joined(separator: ","))]")
        }
        StandardOutput.line("{" + fields.joined(separator: ",") + "}")
    }
}
