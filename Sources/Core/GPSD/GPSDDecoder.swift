import Foundation

/// Why a line is not a usable gpsd report; the description names what was wrong and where.
public struct GPSDDecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Decodes one line of gpsd JSON, tolerantly: unknown classes and fields are ignored and every
/// field but `class` is optional, because gpsd adds fields in nearly every release.
public struct GPSDDecoder {
    private let json = JSONDecoder()

    public init() {}

    public func decode(_ line: [UInt8]) throws(GPSDDecodeError) -> GPSDMessage {
        do {
            return try json.decode(Envelope.self, from: Data(line)).message
        } catch let error as DecodingError {
            throw GPSDDecodeError(Self.describe(error))
        } catch {
            throw GPSDDecodeError("not gpsd JSON: \(error)")
        }
    }

    /// Decodes `class` and the matching body in one pass over the line.
    private struct Envelope: Decodable {
        let message: GPSDMessage

        private enum Keys: String, CodingKey { case `class`, message, devices }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            let className = try c.decode(String.self, forKey: .class)
            switch className {
            case "TPV": message = .tpv(try TPV(from: decoder))
            case "SKY": message = .sky(try GPSDMessage.SKY(from: decoder))
            case "VERSION": message = .version(try GPSDMessage.Version(from: decoder))
            case "DEVICE": message = .device(try GPSDMessage.Device(from: decoder))
            case "DEVICES": message = .devices(try c.decodeIfPresent([GPSDMessage.Device].self, forKey: .devices) ?? [])
            case "ERROR": message = .error(try c.decodeIfPresent(String.self, forKey: .message) ?? "")
            default: message = .other(className: className)
            }
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map(\.stringValue).joined(separator: ".")
            return keys.isEmpty ? "" : "field '\(keys)': "
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context))expected \(type)"
        case .valueNotFound(let type, let context):
            return "\(path(context))null where \(type) was expected"
        case .keyNotFound(let key, _):
            return "missing field '\(key.stringValue)'"
        case .dataCorrupted(let context):
            let detail = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return "\(path(context))\(detail ?? context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
