/// One accelerometer reading: m/s² on the device's three axes (gravity included, as IIO gives
/// them once scaled), at seconds on a monotonic clock.
public struct AccelerationSample: Sendable, Equatable {
    public var time: Double
    public var x: Double
    public var y: Double
    public var z: Double

    public init(time: Double, x: Double, y: Double, z: Double) {
        self.time = time
        self.x = x
        self.y = y
        self.z = z
    }

    /// Independent of how the device is turned.
    public var magnitude: Double { (x * x + y * y + z * z).squareRoot() }
}
