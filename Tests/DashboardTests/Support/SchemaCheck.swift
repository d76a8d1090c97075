import DashboardCore
import Foundation

@testable import DashboardServer

/// A JSON value as written, with integers told from other numbers.
enum JSONValue: Decodable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else {
            self = .array(try container.decode([JSONValue].self))
        }
    }
}

/// Holds JSON to the document's schemas (OpenAPI 3.0's subset the document uses: `$ref`, `allOf`,
/// `nullable`, `type`, `enum`, `required`, `properties`, `items`), every object closed: a field the
/// schema does not name is a problem. Records which documented fields were written with a value.
struct SchemaCheck {
    let document: OpenAPIDocument
    private(set) var problems: [String] = []
    /// Every property of every object schema reached, by its pointer.
    private(set) var documented: Set<String> = []
    /// The properties written with a value other than null.
    private(set) var written: Set<String> = []

    init(document: OpenAPIDocument) {
        self.document = document
    }

    mutating func body(_ body: any DocumentedBody) throws {
        try json(Data(try JSONText.encode(body).utf8), schema: type(of: body).schema)
    }

    mutating func json(_ data: Data, schema pointer: String) throws {
        let value = try JSONDecoder().decode(JSONValue.self, from: data)
        check(value, pointer, at: String(pointer.split(separator: "/").last ?? ""))
    }

    private mutating func check(_ value: JSONValue, _ pointer: String, at path: String) {
        guard let schema = document.resolve(pointer) as? [String: Any] else {
            problems.append("\(path): no schema at \(pointer)")
            return
        }
        if let ref = schema["$ref"] as? String { return check(value, ref, at: path) }
        if case .null = value {
            if schema["nullable"] as? Bool != true { problems.append("\(path): null where the schema is not nullable") }
            return
        }
        if schema["allOf"] != nil || schema["type"] as? String == "object" {
            guard case .object(let members) = value else {
                problems.append("\(path): not an object")
                return
            }
            var properties: [String: String] = [:]
            var required: Set<String> = []
            collect(pointer, into: &properties, &required)
            checkObject(members, properties, required, at: path)
            return
        }
        switch (schema["type"] as? String, value) {
        case ("string", .string(let text)):
            if let values = schema["enum"] as? [Any], !values.contains(where: { $0 as? String == text }) {
                problems.append("\(path): \"\(text)\" is not one of \(values)")
            }
        case ("string", _): problems.append("\(path): not a string")
        case ("integer", .integer): break
        case ("integer", _): problems.append("\(path): not an integer")
        case ("number", .integer), ("number", .number): break
        case ("number", _): problems.append("\(path): not a number")
        case ("boolean", .bool): break
        case ("boolean", _): problems.append("\(path): not a boolean")
        case ("array", .array(let items)):
            for (index, item) in items.enumerated() { check(item, "\(pointer)/items", at: "\(path)[\(index)]") }
        case ("array", _): problems.append("\(path): not an array")
        default: problems.append("\(path): the schema at \(pointer) has no type this check knows")
        }
    }

    /// An object schema's properties (name to pointer) and required names, through `$ref` and `allOf`.
    private func collect(_ pointer: String, into properties: inout [String: String], _ required: inout Set<String>) {
        guard let schema = document.resolve(pointer) as? [String: Any] else { return }
        if let ref = schema["$ref"] as? String { return collect(ref, into: &properties, &required) }
        for index in (schema["allOf"] as? [Any] ?? []).indices {
            collect("\(pointer)/allOf/\(index)", into: &properties, &required)
        }
        for name in (schema["properties"] as? [String: Any] ?? [:]).keys {
            properties[name] = "\(pointer)/properties/\(name)"
        }
        required.formUnion((schema["required"] as? [Any] ?? []).compactMap { $0 as? String })
    }

    private mutating func checkObject(
        _ members: [String: JSONValue],
        _ properties: [String: String],
        _ required: Set<String>,
        at path: String
    ) {
        documented.formUnion(properties.values)
        for name in required.subtracting(members.keys).sorted() {
            problems.append("\(path).\(name): required, missing")
        }
        for (name, member) in members.sorted(by: { $0.key < $1.key }) {
            guard let pointer = properties[name] else {
                problems.append("\(path).\(name): written but undocumented")
                continue
            }
            if case .null = member {} else { written.insert(pointer) }
            check(member, pointer, at: "\(path).\(name)")
        }
    }
}
