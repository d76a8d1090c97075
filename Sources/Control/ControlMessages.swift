import Foundation

/// One request on the control socket: a JSON object on one line.
public struct ControlRequest: Sendable, Codable, Equatable {
    public enum Command: String, Sendable, Codable, CaseIterable {
        case start, pause, resume, end, status
    }

    public var command: Command
    /// Commands that change the session need an id: a retry with the same id is not applied twice.
    public var id: String?
    /// For `start`: running, walking or cycling; the configured activity when absent.
    public var activity: String?

    public init(command: Command, id: String? = nil, activity: String? = nil) {
        self.command = command
        self.id = id
        self.activity = activity
    }
}

/// The figures `ctl status` shows.
public struct StatusReport: Sendable, Codable, Equatable {
    public struct GPS: Sendable, Codable, Equatable {
        public var gpsdConnected: Bool
        /// gpsd mode of the last report: 1 no fix, 2 2D, 3 3D.
        public var mode: Int?
        public var horizontalError: Double?
        public var lastFixAge: Double?
        public var lost: Bool

        public init(gpsdConnected: Bool, mode: Int?, horizontalError: Double?, lastFixAge: Double?, lost: Bool) {
            self.gpsdConnected = gpsdConnected
            self.mode = mode
            self.horizontalError = horizontalError
            self.lastFixAge = lastFixAge
            self.lost = lost
        }

        enum CodingKeys: String, CodingKey {
            case gpsdConnected = "gpsd_connected"
            case mode
            case horizontalError = "horizontal_error_m"
            case lastFixAge = "last_fix_age_s"
            case lost
        }
    }

    /// The strap as the daemon sees it now; nil when no strap is configured.
    public struct HeartRate: Sendable, Codable, Equatable {
        /// "searching" (no beat yet), "streaming" or "lost".
        public var link: String
        public var address: String?
        public var bpm: Int?
        public var contact: String?
        public var batteryPercent: Int?
        public var location: String?
        public var lastBeatAge: Double?
        public var beats: Int
        public var malformed: Int

        public init(
            link: String,
            address: String? = nil,
            bpm: Int? = nil,
            contact: String? = nil,
            batteryPercent: Int? = nil,
            location: String? = nil,
            lastBeatAge: Double? = nil,
            beats: Int = 0,
            malformed: Int = 0
        ) {
            self.link = link
            self.address = address
            self.bpm = bpm
            self.contact = contact
            self.batteryPercent = batteryPercent
            self.location = location
            self.lastBeatAge = lastBeatAge
            self.beats = beats
            self.malformed = malformed
        }

        enum CodingKeys: String, CodingKey {
            case link, address, bpm, contact, location, beats, malformed
            case batteryPercent = "battery_percent"
            case lastBeatAge = "last_beat_age_s"
        }
    }

    public var state: String
    public var sessionID: String?
    public var activity: String?
    public var distance: Double?
    public var elapsed: Double?
    public var moving: Double?
    public var paused: Double?
    public var averagePace: Double?
    public var currentPace: Double?
    public var fixesAccepted: Int?
    public var fixesRejected: Int?
    public var gps: GPS
    public var heartRate: HeartRate?

    public init(
        state: String,
        sessionID: String? = nil,
        activity: String? = nil,
        distance: Double? = nil,
        elapsed: Double? = nil,
        moving: Double? = nil,
        paused: Double? = nil,
        averagePace: Double? = nil,
        currentPace: Double? = nil,
        fixesAccepted: Int? = nil,
        fixesRejected: Int? = nil,
        gps: GPS,
        heartRate: HeartRate? = nil
    ) {
        self.heartRate = heartRate
        self.state = state
        self.sessionID = sessionID
        self.activity = activity
        self.distance = distance
        self.elapsed = elapsed
        self.moving = moving
        self.paused = paused
        self.averagePace = averagePace
        self.currentPace = currentPace
        self.fixesAccepted = fixesAccepted
        self.fixesRejected = fixesRejected
        self.gps = gps
    }

    enum CodingKeys: String, CodingKey {
        case state
        case sessionID = "session_id"
        case activity
        case distance = "distance_m"
        case elapsed = "elapsed_s"
        case moving = "moving_s"
        case paused = "paused_s"
        case averagePace = "avg_pace_s_per_km"
        case currentPace = "current_pace_s_per_km"
        case fixesAccepted = "fixes_accepted"
        case fixesRejected = "fixes_rejected"
        case gps
        case heartRate = "heart_rate"
    }
}

/// The answer to one request, on one line.
public struct ControlReply: Sendable, Codable, Equatable {
    public var ok: Bool
    public var id: String?
    public var command: String?
    public var message: String?
    public var state: String?
    public var sessionID: String?
    public var status: StatusReport?
    /// Why the request was not understood or not applied.
    public var error: String?

    public init(
        ok: Bool,
        id: String? = nil,
        command: String? = nil,
        message: String? = nil,
        state: String? = nil,
        sessionID: String? = nil,
        status: StatusReport? = nil,
        error: String? = nil
    ) {
        self.ok = ok
        self.id = id
        self.command = command
        self.message = message
        self.state = state
        self.sessionID = sessionID
        self.status = status
        self.error = error
    }

    public static func failure(_ error: String, id: String? = nil) -> ControlReply {
        ControlReply(ok: false, id: id, error: error)
    }

    enum CodingKeys: String, CodingKey {
        case ok, id, command, message, state
        case sessionID = "session_id"
        case status, error
    }
}

/// Line-delimited JSON both ways; a bad request is an error reply, never a dropped connection.
public enum ControlCodec {
    /// Requests are tiny; anything longer is refused before it is buffered.
    public static let maxRequestLength = 4096

    public static func decodeRequest(_ line: [UInt8]) -> Result<ControlRequest, ControlProtocolError> {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)), object is [String: Any] else {
            return .failure(ControlProtocolError("request is not a JSON object"))
        }
        do {
            let request = try JSONDecoder().decode(ControlRequest.self, from: Data(line))
            if let id = request.id, id.isEmpty || id.utf8.count > 128 {
                return .failure(ControlProtocolError("id must be 1 to 128 bytes"))
            }
            return .success(request)
        } catch DecodingError.dataCorrupted(let context) {
            return .failure(
                ControlProtocolError("bad value at \(path(context.codingPath)): \(context.debugDescription)")
            )
        } catch DecodingError.keyNotFound(let key, _) {
            return .failure(ControlProtocolError("missing \"\(key.stringValue)\""))
        } catch DecodingError.typeMismatch(_, let context) {
            return .failure(ControlProtocolError("wrong type at \(path(context.codingPath))"))
        } catch {
            return .failure(ControlProtocolError("cannot decode request: \(error)"))
        }
    }

    public static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding our own plain structs cannot fail.
        var bytes = (try? encoder.encode(value)).map { Array($0) } ?? Array(#"{"ok":false,"error":"encoding"}"#.utf8)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    private static func path(_ keys: [CodingKey]) -> String {
        keys.isEmpty ? "top level" : keys.map(\.stringValue).joined(separator: ".")
    }
}

public struct ControlProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
