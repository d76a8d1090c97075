import Foundation

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
