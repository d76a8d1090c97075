/// One wearable's stream to the phone: the wearable (by its pinned certificate) and the stream's
/// number. A wearable has at most one open connection; a newer one replaces the older.
public struct PhoneConnection: Sendable, Hashable, CustomStringConvertible {
    public let id: Int
    public let wearable: String

    public init(id: Int, wearable: String) {
        self.id = id
        self.wearable = wearable
    }

    public var description: String { "\(wearable)#\(id)" }
}
