/// A small, strict XML reader for course files: elements with their attributes, character data,
/// comments, CDATA, processing instructions and a DOCTYPE (skipped: its declarations are never
/// used, so no entity is ever expanded but XML's five and character references). Pure Swift, so
/// that a statically linked program carries no XML library. Tags must nest; names are compared
/// without their namespace prefix.
struct XMLScanner {
    enum Event {
        case start(name: String, attributes: [String: String], line: Int)
        case end(name: String)
        case text(String)
    }

    struct Failure: Error {
        var line: Int
        var reason: String
    }

    private let bytes: [UInt8]
    private var at = 0
    private var line = 1
    private var open: [String] = []

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { at = 3 }
    }

    /// Every event in order, to `handle`; it returns false to stop.
    mutating func scan(_ handle: (Event) throws(Failure) -> Bool) throws(Failure) {
        var sawRoot = false
        while at < bytes.count {
            if bytes[at] != UInt8(ascii: "<") {
                let text = try characterData()
                if open.isEmpty {
                    guard text.allSatisfy(\.isWhitespace) else { throw fail("text outside the root element") }
                } else if try !handle(.text(text)) {
                    return
                }
                continue
            }
            if starts("<!--") {
                try skip(past: "-->", "a comment")
            } else if starts("<![CDATA[") {
                at += 9
                let text = try take(until: "]]>", "a CDATA section")
                guard !open.isEmpty else { throw fail("CDATA outside the root element") }
                if try !handle(.text(text)) { return }
            } else if starts("<?") {
                try skip(past: "?>", "a processing instruction")
            } else if starts("<!DOCTYPE") {
                try skipDoctype()
            } else if starts("</") {
                at += 2
                let name = try self.name()
                skipSpace()
                try expect(">")
                guard let last = open.last, last == name else {
                    throw fail("</\(name)> does not close <\(open.last ?? "anything")>")
                }
                open.removeLast()
                if try !handle(.end(name: local(name))) { return }
            } else {
                at += 1
                guard !sawRoot || !open.isEmpty else { throw fail("a second root element") }
                sawRoot = true
                let startLine = line
                let name = try self.name()
                var attributes: [String: String] = [:]
                while true {
                    let spaced = skipSpace()
                    guard at < bytes.count else { throw fail("<\(name) is not closed") }
                    if bytes[at] == UInt8(ascii: ">") || starts("/>") { break }
                    guard spaced else { throw fail("attributes of <\(name)> must be separated by spaces") }
                    let key = try self.name()
                    skipSpace()
                    try expect("=")
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else {
                        throw fail("the value of \(key) must be quoted")
                    }
                    let quote = bytes[at]
                    at += 1
                    var raw: [UInt8] = []
                    while at < bytes.count, bytes[at] != quote {
                        guard bytes[at] != UInt8(ascii: "<") else { throw fail("< in the value of \(key)") }
                        if bytes[at] == 0x0A { line += 1 }
                        raw.append(bytes[at])
                        at += 1
                    }
                    guard at < bytes.count else { throw fail("the value of \(key) is not closed") }
                    at += 1
                    guard attributes[local(key)] == nil else { throw fail("\(key) twice in <\(name)>") }
                    attributes[local(key)] = try decode(raw)
                }
                let empty = starts("/>")
                at += empty ? 2 : 1
                if try !handle(.start(name: local(name), attributes: attributes, line: startLine)) { return }
                if empty {
                    if try !handle(.end(name: local(name))) { return }
                } else {
                    open.append(name)
                }
            }
        }
        if let last = open.last { throw fail("<\(last)> is not closed at the end of the file") }
        guard sawRoot else { throw fail("no element") }
    }

    // MARK: Pieces

    private func fail(_ reason: String) -> Failure { Failure(line: line, reason: reason) }

    private func starts(_ text: String) -> Bool { bytes[at...].starts(with: text.utf8) }

    private mutating func expect(_ text: String) throws(Failure) {
        guard starts(text) else { throw fail("expected \(text)") }
        at += text.utf8.count
    }

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let before = at
        while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) {
            if bytes[at] == 0x0A { line += 1 }
            at += 1
        }
        return at > before
    }

    private mutating func name() throws(Failure) -> String {
        let begin = at
        while at < bytes.count {
            let byte = bytes[at]
            let allowed =
                byte >= 0x80 || (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
                || (byte >= 0x61 && byte <= 0x7A) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            guard allowed else { break }
            at += 1
        }
        guard at > begin, at - begin <= 200 else { throw fail("a name was expected") }
        return String(decoding: bytes[begin..<at], as: UTF8.self)
    }

    /// A name without its namespace prefix.
    private func local(_ name: String) -> String {
        name.split(separator: ":", maxSplits: 1).last.map(String.init) ?? name
    }

    private mutating func take(until end: String, _ what: String) throws(Failure) -> String {
        let begin = at
        while at < bytes.count, !starts(end) {
            if bytes[at] == 0x0A { line += 1 }
            at += 1
        }
        guard at < bytes.count else { throw fail("\(what) is not closed") }
        let text = String(decoding: bytes[begin..<at], as: UTF8.self)
        at += end.utf8.count
        return text
    }

    private mutating func skip(past end: String, _ what: String) throws(Failure) {
        _ = try take(until: end, what)
    }

    /// A DOCTYPE with or without an internal subset: skipped whole, its declarations unused.
    private mutating func skipDoctype() throws(Failure) {
        var depth = 0
        while at < bytes.count {
            switch bytes[at] {
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ">") where depth <= 0:
                at += 1
                return
            case 0x0A: line += 1
            default: break
            }
            at += 1
        }
        throw fail("the DOCTYPE is not closed")
    }

    private mutating func characterData() throws(Failure) -> String {
        var raw: [UInt8] = []
        while at < bytes.count, bytes[at] != UInt8(ascii: "<") {
            if bytes[at] == 0x0A { line += 1 }
            raw.append(bytes[at])
            at += 1
        }
        return try decode(raw)
    }

    /// Text with XML's five entities and character references replaced; any other entity is an
    /// error (a DTD's are never expanded).
    private func decode(_ raw: [UInt8]) throws(Failure) -> String {
        guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        var index = 0
        while index < raw.count {
            guard raw[index] == UInt8(ascii: "&") else {
                out.append(raw[index])
                index += 1
                continue
            }
            guard let semicolon = raw[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
                throw fail("an & that starts no reference")
            }
            let entity = String(decoding: raw[(index + 1)..<semicolon], as: UTF8.self)
            let replacement: String
            switch entity {
            case "amp": replacement = "&"
            case "lt": replacement = "<"
            case "gt": replacement = ">"
            case "quot": replacement = "\""
            case "apos": replacement = "'"
            default:
                let number: UInt32? =
                    entity.hasPrefix("#x")
                    ? UInt32(entity.dropFirst(2), radix: 16)
                    : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                guard let number, let scalar = Unicode.Scalar(number) else {
                    throw fail("&\(entity.prefix(20)); is not an entity of XML's (a DTD's are not expanded)")
                }
                replacement = String(Character(scalar))
            }
            out += Array(replacement.utf8)
            index = semicolon + 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
