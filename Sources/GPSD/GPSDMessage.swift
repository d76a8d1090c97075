import TrackCore

/// One gpsd JSON report, by its `class`. Classes wearbridge does not use are kept by name only.
public enum GPSDMessage: Sendable, Equatable {
    case tpv(TPV)
    case sky(SKY)
    case version(Version)
    /// gpsd's `ERROR` class: it refused something we asked.
    case error(String)
    case other(className: String)

    /// Satellite view; only what a field tester reads off it.
    public struct SKY: Sendable, Equatable, Decodable {
        public var device: String?
        public var nSat: Int?
        public var uSat: Int?
        public var hdop: Double?

        public init(device: String? = nil, nSat: Int? = nil, uSat: Int? = nil, hdop: Double? = nil) {
            self.device = device
            self.nSat = nSat
            self.uSat = uSat
            self.hdop = hdop
        }
    }

    /// gpsd's greeting. `protoMajor` is informational only: 3.27.0-3.27.2 report 0, 3.27.5 reports 16.
    public struct Version: Sendable, Equatable, Decodable {
        public var release: String?
        public var protoMajor: Int?
        public var protoMinor: Int?

        private enum CodingKeys: String, CodingKey {
            case release
            case protoMajor = "proto_major"
            case protoMinor = "proto_minor"
        }

        public init(release: String? = nil, protoMajor: Int? = nil, protoMinor: Int? = nil) {
            self.release = release
            self.protoMajor = protoMajor
            self.protoMinor = protoMinor
        }
    }
}
