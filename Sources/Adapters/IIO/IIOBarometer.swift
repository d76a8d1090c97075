/// A barometer among the IIO devices: a pressure channel, read in kPa as the IIO ABI defines it
/// (`in_pressure_input`, or `in_pressure_raw` times `in_pressure_scale` plus its offset).
public struct IIOBarometer: Sendable, Equatable {
    public let device: IIODevice
    private let processed: Bool

    public init?(_ device: IIODevice) {
        self.device = device
        if device.has("in_pressure_input") {
            processed = true
        } else if device.has("in_pressure_raw"), device.has("in_pressure_scale") {
            processed = false
        } else {
            return nil
        }
    }

    /// The first barometer under `root` (by path), or the device `choice` names: its sysfs path
    /// or its driver's name.
    public static func find(_ choice: String? = nil, root: String = IIODevice.root) -> IIOBarometer? {
        IIODevice.all(root: root).lazy.filter { device in
            guard let choice else { return true }
            return device.path == choice || device.name == choice
        }.compactMap(IIOBarometer.init).first
    }

    /// The pressure now, kPa.
    public func read() throws(IIOReadError) -> Double {
        if processed { return try device.number("in_pressure_input") }
        let raw = try device.number("in_pressure_raw")
        let scale = try device.number("in_pressure_scale")
        let offset = device.has("in_pressure_offset") ? try device.number("in_pressure_offset") : 0
        return (raw + offset) * scale
    }
}
