/// A JSON body the dashboard sends, with the place in `openapi.yaml` that documents it (a JSON
/// pointer). Property names are the document's in camel case: the encoder writes them in snake case
/// (`lastSeenAgeS` is `last_seen_age_s`). A test holds every body to its schema and every schema to
/// the bodies, so neither can say what the other does not.
protocol DocumentedBody: Encodable, Sendable, Equatable {
    static var schema: String { get }
}

extension DocumentedBody {
    /// The pointer to a response's JSON schema under `paths`.
    static func response(_ path: String, _ method: String, _ status: Int) -> String {
        "#/paths/\(pointerToken(path))/\(method)/responses/\(status)/content/application~1json/schema"
    }
}

/// A name as one token of a JSON pointer (RFC 6901): `~` as `~0`, `/` as `~1`.
func pointerToken(_ name: String) -> String {
    name.replacing("~", with: "~0").replacing("/", with: "~1")
}

/// A body the event stream also sends stamped with the server's clock, documented as its own event.
protocol StampedBody: DocumentedBody {
    static var eventSchema: String { get }
}

/// A body stamped with the server's clock, as the event stream sends snapshots and messages: the
/// body's own fields and `server_time_ms` in one object.
struct Stamped<Body: StampedBody>: DocumentedBody {
    static var schema: String { Body.eventSchema }

    var body: Body
    var serverTimeMs: Int64

    init(_ body: Body, serverTimeMs: Int64) {
        self.body = body
        self.serverTimeMs = serverTimeMs
    }

    private enum CodingKeys: String, CodingKey {
        case serverTimeMs
    }

    func encode(to encoder: any Encoder) throws {
        try body.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(serverTimeMs, forKey: .serverTimeMs)
    }
}
