import DashboardCore

/// The link strip as the API sends it (`Link`): judged on the server's clock.
struct LinkBody: DocumentedBody {
    static let schema = "#/components/schemas/Link"

    var state: LinkStrip.State
    @Nullable var lastSeenAgeS: Double? = nil
    @Nullable var commandsRefusedBecause: String? = nil
    var outboxDepth: Int
    var highWater: Int
    var serverTimeMs: Int64
}

/// The event stream's `link` event: the strip, the newest snapshot's age and the strap's battery.
struct LinkEvent: DocumentedBody {
    static let schema = "#/components/schemas/LinkEvent"

    var link: LinkBody
    @Nullable var snapshotAgeS: Double? = nil
    var strapBatteryPercent: Int?
    var strapBatteryAgeS: Double?

    private enum CodingKeys: String, CodingKey {
        case snapshotAgeS, strapBatteryPercent, strapBatteryAgeS
    }

    func encode(to encoder: any Encoder) throws {
        try link.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(_snapshotAgeS, forKey: .snapshotAgeS)
        try container.encodeIfPresent(strapBatteryPercent, forKey: .strapBatteryPercent)
        try container.encodeIfPresent(strapBatteryAgeS, forKey: .strapBatteryAgeS)
    }
}
