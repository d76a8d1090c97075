/// One Server-Sent Events frame (the WHATWG `text/event-stream` format): `id:` is the inbox
/// message's seq, so a reconnecting browser's `Last-Event-ID` says where to resume.
public struct ServerSentEvent: Sendable, Equatable {
    public var id: Int?
    public var event: String
    public var data: String
    /// Milliseconds the browser waits before reconnecting, sent once at the stream's start.
    public var retry: Int?

    public init(id: Int? = nil, event: String, data: String, retry: Int? = nil) {
        self.id = id
        self.event = event
        self.data = data
        self.retry = retry
    }

    /// The frame's text: every line of `data` its own `data:` field (a newline in it cannot end the
    /// frame early), a blank line after.
    public var text: String {
        var out = ""
        if let retry { out += "retry: \(retry)\n" }
        if let id { out += "id: \(id)\n" }
        out += "event: \(event)\n"
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) {
            out += "data: \(line.filter { $0 != "\r" })\n"
        }
        return out + "\n"
    }

    /// A comment line: keeps proxies and the browser from timing an idle stream out.
    public static let keepAlive = ": keep-alive\n\n"

    /// `Last-Event-ID` (or the page's `last_event_id` after it opens a new stream itself): a seq,
    /// or nil when absent; an error for anything else.
    public static func resumePoint(_ text: String?) -> Result<Int?, ResumePointError> {
        guard let text, !text.isEmpty else { return .success(nil) }
        guard text.utf8.count <= 19, let seq = Int(text), seq >= 0 else { return .failure(.notASeq(text)) }
        return .success(seq)
    }
}

public enum ResumePointError: Error, Equatable, CustomStringConvertible {
    case notASeq(String)

    public var description: String {
        switch self {
        case .notASeq(let text): "Last-Event-ID must be a message seq (0 or more), not \"\(text.prefix(40))\""
        }
    }
}
