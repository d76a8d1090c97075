/// The link strip as the API sends it (`Link`): judged on the server's clock.
public struct LinkBody: DocumentedBody {
    public static let schema = "#/components/schemas/Link"

    public var state: LinkStrip.State
    @Nullable public var lastSeenAgeS: Double?
    @Nullable public var commandsRefusedBecause: String?
    public var outboxDepth: Int
    public var highWater: Int
    public var serverTimeMs: Int64

    public init(
        state: LinkStrip.State,
        lastSeenAgeS: Double?,
        commandsRefusedBecause: String?,
        outboxDepth: Int,
        highWater: Int,
        serverTimeMs: Int64
    ) {
        self.state = state
        self.lastSeenAgeS = lastSeenAgeS
        self.commandsRefusedBecause = commandsRefusedBecause
        self.outboxDepth = outboxDepth
        self.highWater = highWater
        self.serverTimeMs = serverTimeMs
    }
}

extension LinkStrip.State: Encodable {}

/// The event stream's `link` event: the strip, the newest snapshot's age and the strap's battery.
public struct LinkEvent: DocumentedBody {
    public static let schema = "#/components/schemas/LinkEvent"

    public var link: LinkBody
    @Nullable public var snapshotAgeS: Double?
    public var strapBatteryPercent: Int?
    public var strapBatteryAgeS: Double?

    public init(link: LinkBody, snapshotAgeS: Double?, strapBatteryPercent: Int?, strapBatteryAgeS: Double?) {
        self.link = link
        self.snapshotAgeS = snapshotAgeS
        self.strapBatteryPercent = strapBatteryPercent
        self.strapBatteryAgeS = strapBatteryAgeS
    }

    private enum CodingKeys: String, CodingKey {
        case snapshotAgeS, strapBatteryPercent, strapBatteryAgeS
    }

    public func encode(to encoder: any Encoder) throws {
        try link.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(_snapshotAgeS, forKey: .snapshotAgeS)
        try container.encodeIfPresent(strapBatteryPercent, forKey: .strapBatteryPercent)
        try container.encodeIfPresent(strapBatteryAgeS, forKey: .strapBatteryAgeS)
    }
}
