import PhoneLinkContract
import PhoneLinkWire
import PhoneServer

extension InboxMessage {
    /// A critical message from the wearable "pi" with `payload`, received `seq` seconds after 1000.
    static func fromPi(seq: Int, _ payload: Wearbridge_Link_V1_Payload) throws -> InboxMessage {
        InboxMessage(
            wearable: "pi",
            epoch: "e1",
            seq: seq,
            messageClass: .critical,
            kind: payload.messageKind,
            session: payload.sessionText,
            payload: try payload.serializedBytes(),
            createdAtMs: 0,
            receivedAt: 1000 + Double(seq)
        )
    }
}
