import DashboardCore
import Foundation
import Hummingbird
import NIOCore

/// JSON out: the edge where the API's typed bodies become text, keys in snake case, sorted.
enum JSONText {
    static func encode(_ body: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(body), as: UTF8.self)
    }

    static func response(_ body: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: try encode(body)))
        )
    }

    /// A clear error: what was wrong, as `{"error": code, "message": text}`.
    static func error(_ status: HTTPResponse.Status, _ code: String, _ message: String) -> Response {
        // Two strings always encode; the fallback is only there so this never throws.
        (try? response(APIError(code, message), status: status)) ?? Response(status: status)
    }
}
