import HexCoding

/// A strap's side of a GATT conversation as bytes: what the client must send, what the strap answers.
///
/// Handles: GAP 0x01-0x05, GATT 0x06-0x09, Heart Rate 0x0A-0x0F (0x2A37 decl 0x0B value 0x0C,
/// CCCD 0x0D; 0x2A38 decl 0x0E value 0x0F), Battery 0x10-0x12 (0x2A19 decl 0x11 value 0x12).
public enum Step: Sendable, CustomStringConvertible {
    /// The client must send exactly these bytes next.
    case expect(String)
    /// The strap sends these bytes.
    case reply(String)
    /// The strap closes the channel (the link drops).
    case close
    /// The strap says nothing for a while (ms).
    case wait(Int)

    public var description: String {
        switch self {
        case .expect(let hex): "expect \(hex)"
        case .reply(let hex): "reply \(hex)"
        case .close: "close"
        case .wait(let ms): "wait \(ms) ms"
        }
    }

    public var bytes: [UInt8] {
        switch self {
        case .expect(let hex), .reply(let hex): (try? Hex.decode(hex)) ?? []
        default: []
        }
    }
}

public enum StrapTranscript {
    public static let mtu: [Step] = [.expect("02 b9 00"), .reply("03 f7 00")]
    public static let services: [Step] = [
        .expect("10 0100 ffff 0028"),
        .reply("11 06 0100 0500 0018 0600 0900 0118 0a00 0f00 0d18 1000 1200 0f18"),
        .expect("10 1300 ffff 0028"),
        .reply("01 10 1300 0a"),
    ]
    public static let characteristics: [Step] = [
        .expect("08 0a00 0f00 0328"),
        .reply("09 07 0b00 10 0c00 372a 0e00 02 0f00 382a"),
        .expect("08 0f00 0f00 0328"),
        .reply("01 08 0f00 0a"),
        .expect("08 1000 1200 0328"),
        .reply("09 07 1100 12 1200 192a"),
        .expect("08 1200 1200 0328"),
        .reply("01 08 1200 0a"),
    ]
    public static let descriptors: [Step] = [.expect("04 0d00 0d00"), .reply("05 01 0d00 0229")]
    public static let subscribe: [Step] = [.expect("12 0d00 0100"), .reply("13")]
    public static let reads: [Step] = [.expect("0a 0f00"), .reply("0b 01"), .expect("0a 1200"), .reply("0b 50")]
    /// Everything up to and including the reads that follow the subscription.
    public static let discovery = mtu + services + characteristics + descriptors + subscribe + reads

    public static func beat(_ payload: String) -> Step { .reply("1b 0c00 " + payload) }
}
