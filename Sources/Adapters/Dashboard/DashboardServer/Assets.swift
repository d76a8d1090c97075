import Hummingbird
import NIOCore

/// The page, its script, style and the API's OpenAPI document, compiled into the binary: the
/// dashboard needs no internet, no CDN and no files beside the program.
enum Assets {
    struct Asset: Sendable {
        let bytes: [UInt8]
        let type: String
        let etag: String
    }

    static let page = asset(PackageResources.index_html, "text/html; charset=utf-8")
    static let script = asset(PackageResources.app_js, "text/javascript; charset=utf-8")
    static let style = asset(PackageResources.app_css, "text/css; charset=utf-8")
    static let openAPI = asset(PackageResources.openapi_yaml, "application/yaml; charset=utf-8")

    private static func asset(_ bytes: [UInt8], _ type: String) -> Asset {
        // FNV-1a of the bytes: a new build's changed file gets a new ETag.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Asset(bytes: bytes, type: type, etag: "\"\(String(hash, radix: 16))\"")
    }

    static func response(_ asset: Asset, _ request: Request) -> Response {
        var headers: HTTPFields = [
            .contentType: asset.type, .eTag: asset.etag, .cacheControl: "no-cache",
            .init("X-Content-Type-Options")!: "nosniff",
        ]
        if asset.type.hasPrefix("text/html") {
            headers[.init("Content-Security-Policy")!] =
                "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'"
        }
        if request.headers[.ifNoneMatch] == asset.etag {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: asset.bytes)))
    }
}
