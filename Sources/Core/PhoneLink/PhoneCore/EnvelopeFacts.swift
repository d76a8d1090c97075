import PhoneLinkMessages

/// What the core needs to know of one envelope from a wearable: the shell reads it off the wire and
/// keeps the envelope itself until the core says whether to commit it.
public struct EnvelopeFacts: Sendable, Equatable {
    public var seq: Int
    /// Nil: a class this phone does not know.
    public var messageClass: LinkMessage.Class?
    /// What makes a snapshot impossible (nil when nothing does, or when it is not a snapshot).
    public var impossibility: String?
    /// Its payload's kind; nil for a kind this phone does not know (a newer wearable).
    public var kind: MessageKind?
    /// The command it answers, when it is a command's reply.
    public var answers: String?

    public init(
        seq: Int,
        messageClass: LinkMessage.Class?,
        impossibility: String? = nil,
        kind: MessageKind?,
        answers: String? = nil
    ) {
        self.seq = seq
        self.messageClass = messageClass
        self.impossibility = impossibility
        self.kind = kind
        self.answers = answers
    }
}
