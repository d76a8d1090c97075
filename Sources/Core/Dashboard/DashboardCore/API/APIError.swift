/// What was wrong, in words: a stable code (`unknown_wearable`, `malformed_id`, ...) and a sentence.
public struct APIError: DocumentedBody {
    public static let schema = "#/components/schemas/Error"

    public var error: String
    public var message: String

    public init(_ error: String, _ message: String) {
        self.error = error
        self.message = message
    }
}

/// The relay refused a desk request: its SQLSTATE-like code and its own words.
public struct RelayRefusal: DocumentedBody {
    public static let schema = "#/components/schemas/RelayRefusal"

    public var error = "relay_refused"
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}
