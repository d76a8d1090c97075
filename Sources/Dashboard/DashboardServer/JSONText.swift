import Foundation
import Hummingbird
import NIOCore

/// JSON out, numbers as numbers: the edge where typed values become the API's text.
enum JSONText {
    static func encode(_ object: [String: Any]) -> String {
        // Only JSON's own types may go in (an ArraySlice, say, would make the whole answer "{}").
        assert(JSONSerialization.isValidJSONObject(object), "not a JSON object: \(object)")
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: object,
                options: [.sortedKeys, .withoutEscapingSlashes]
            )
        else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    static func response(_ object: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        let text = encode(object)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }

    /// A clear error: what was wrong, as `{"error": code, "message": text}`.
    static func error(_ status: HTTPResponse.Status, _ code: String, _ message: String) -> Response {
        response(["error": code, "message": message], status: status)
    }

    /// Optional values as JSON null.
    static func value(_ value: Any?) -> Any { value ?? NSNull() }
}
