import Foundation
import PhoneLinkContract
import PhoneLinkMessages

/// A message as the inbox stores it (and lists it back).
public struct InboxMessage: Sendable {
    public var wearable: String
    public var epoch: String
    public var seq: Int
    public var messageClass: LinkMessage.Class
    public var kind: MessageKind
    public var session: String?
    public var payload: Data
    public var createdAtMs: Int64
    public var receivedAt: Double
    /// A command reply's answer, settled in the command table with it (nil when listed back).
    public var answer: CommandAnswer?

    public init(
        wearable: String,
        epoch: String,
        seq: Int,
        messageClass: LinkMessage.Class,
        kind: MessageKind,
        session: String?,
        payload: Data,
        createdAtMs: Int64,
        receivedAt: Double,
        answer: CommandAnswer? = nil
    ) {
        self.wearable = wearable
        self.epoch = epoch
        self.seq = seq
        self.messageClass = messageClass
        self.kind = kind
        self.session = session
        self.payload = payload
        self.createdAtMs = createdAtMs
        self.receivedAt = receivedAt
        self.answer = answer
    }

    public var isSnapshot: Bool { messageClass == .snapshot }
}

public struct InboxError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
