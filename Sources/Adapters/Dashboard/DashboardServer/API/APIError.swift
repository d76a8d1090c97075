/// What was wrong, in words: a stable code (`unknown_wearable`, `malformed_id`, ...) and a sentence.
struct APIError: DocumentedBody {
    static let schema = "#/components/schemas/Error"

    var error: String
    var message: String

    init(_ error: String, _ message: String) {
        self.error = error
        self.message = message
    }
}

/// The relay refused a desk request: its SQLSTATE-like code and its own words.
struct RelayRefusal: DocumentedBody {
    static let schema = "#/components/schemas/RelayRefusal"

    var error = "relay_refused"
    var code: String
    var message: String

    init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}
