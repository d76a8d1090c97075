/// Why the wearable has no fix, as gpsd tells it: what `status` says instead of "no fix yet".
public enum NoFixReason: Sendable, Equatable {
    /// No connection to gpsd; the last attempt's error, nil before the first attempt ended.
    case gpsdUnreachable(String?)
    /// Connected, and gpsd has said nothing yet about its receivers (the first seconds).
    case waitingForGPSD
    /// gpsd refused something wearbridge asked (its ERROR report).
    case gpsdError(String)
    /// gpsd runs with no receiver attached (none in its device list, or the last one removed).
    case noReceiver
    /// A receiver is attached but gpsd has had no report from it: unpowered, the wrong port or
    /// speed, or gpsd started without `-n` and the device not yet opened.
    case receiverSilent(path: String?)
    /// The receiver reports, without a fix: the satellites it sees and uses, when it says.
    case searching(satellitesSeen: Int?, satellitesUsed: Int?)
}
