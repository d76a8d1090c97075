import Foundation
import Yams

@testable import DashboardServer

/// `openapi.yaml` as the tests read it: JSON pointers into the parsed document.
struct OpenAPIDocument: @unchecked Sendable {
    let root: [String: Any]

    static func load() throws -> OpenAPIDocument {
        let file = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Sources/Adapters/Dashboard/DashboardServer/assets/openapi.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        guard let root = try Yams.load(yaml: text) as? [String: Any] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return OpenAPIDocument(root: root)
    }

    /// The node at `pointer` (`#/components/schemas/Link`, with `~1` for `/` and `~0` for `~`).
    func resolve(_ pointer: String) -> Any? {
        guard pointer.hasPrefix("#/") else { return nil }
        var node: Any = root
        for part in pointer.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false) {
            let key = String(part).replacing("~1", with: "/").replacing("~0", with: "~")
            if let object = node as? [String: Any], let next = object[key] {
                node = next
            } else if let array = node as? [Any], let index = Int(key), array.indices.contains(index) {
                node = array[index]
            } else {
                return nil
            }
        }
        return node
    }

    /// Every JSON response's schema, as a pointer to where it is written.
    func responseSchemas() -> [String] {
        var pointers: [String] = []
        let paths = root["paths"] as? [String: Any] ?? [:]
        for (path, item) in paths {
            for (method, operation) in item as? [String: Any] ?? [:] {
                let responses = (operation as? [String: Any])?["responses"] as? [String: Any] ?? [:]
                for (status, response) in responses {
                    var place = "#/paths/\(pointerToken(path))/\(method)/responses/\(status)"
                    if let ref = (response as? [String: Any])?["$ref"] as? String { place = ref }
                    let content = (resolve(place) as? [String: Any])?["content"] as? [String: Any]
                    if content?["application/json"] != nil {
                        pointers.append("\(place)/content/application~1json/schema")
                    }
                }
            }
        }
        return pointers.sorted()
    }

    /// The schemas a response may be: the one it refers to, each of `oneOf`, or itself.
    func alternatives(_ pointer: String) -> [String] {
        guard let schema = resolve(pointer) as? [String: Any] else { return [pointer] }
        if let ref = schema["$ref"] as? String { return [ref] }
        if let choices = schema["oneOf"] as? [Any] {
            return choices.indices.flatMap { alternatives("\(pointer)/oneOf/\($0)") }
        }
        return [pointer]
    }

    /// The string values of an `enum` (a documented `null` is the field's nullability, not a value).
    func enumValues(_ pointer: String) -> [String] {
        ((resolve(pointer) as? [String: Any])?["enum"] as? [Any] ?? []).compactMap { $0 as? String }
    }
}
