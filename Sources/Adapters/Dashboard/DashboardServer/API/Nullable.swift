/// A field the API always writes: its value, or JSON `null` (a plain optional would be left out).
/// The document marks these `required` and `nullable`.
@propertyWrapper
struct Nullable<Value: Encodable & Sendable & Equatable>: Encodable, Sendable, Equatable {
    var wrappedValue: Value?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}
