import TrackCore

/// One gpsd JSON report, by its `class`. Classes wearbridge does not use are kept by name only.
public enum GPSDMessage: Sendable, Equatable {
    case tpv(TPV)
    case sky(SKY)
    case version(Version)
    /// gpsd's `ERROR` class: it refused something we asked.
    case error(String)
    /// A receiver appeared (`activated` set) or went away (`activated` 0): unplugged, or gpsd lost it.
    case device(Device)
    /// The receivers gpsd has (`DEVICES`), sent when a client starts watching.
    case devices([Device])
    case other(className: String)

    public struct Device: Sendable, Equatable, Decodable {
        public var path: String?
        /// gpsd 3.x sends a timestamp string when active and `0` when the device is gone; nil if absent.
        public var isActive: Bool?

        private enum CodingKeys: String, CodingKey { case path, activated }

        public init(path: String?, isActive: Bool?) {
            self.path = path
            self.isActive = isActive
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            path = try c.decodeIfPresent(String.self, forKey: .path)
            if !c.contains(.activated) {
                isActive = nil
            } else if let number = try? c.decode(Double.self, forKey: .activated) {
                isActive = number != 0
            } else {
                isActive = try c.decode(String.self, forKey: .activated).isEmpty == false
            }
        }
    }

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
