/// What the strap says about skin contact (flags bits 1-2 of 0x2A37).
public enum SensorContact: String, Sendable, Equatable, Codable {
    /// Bit 2 clear: the strap does not report contact; bit 1 then means nothing.
    case notSupported = "not_supported"
    case notDetected = "not_detected"
    case detected
}
