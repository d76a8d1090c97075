import Foundation
import ProcessClock

#if canImport(Glibc)
import Glibc
#endif

/// An accelerometer among the IIO devices (an IMU's: `bmi160`, `lsm6ds3`, `mpu6050`), read buffered:
/// its x, y and z channels and the kernel's timestamp enabled as scan elements, a trigger driving
/// the buffer at `rate` (the device's own data-ready trigger, else an `iio-trig-hrtimer` software
/// trigger, made through configfs when it is not there yet), each scan read from `/dev/iio:deviceN`
/// and turned into m/s² by the channels' scale. `close()` stops the buffer and gives the trigger back.
public final class IIOAccelerometer {
    /// The name of the software trigger this program makes and uses when the device has no trigger
    /// of its own (`/sys/kernel/config/iio/triggers/hrtimer/wearbridge`).
    public static let hrtimerName = "wearbridge"
    public static let configfs = "/sys/kernel/config/iio/triggers/hrtimer"

    public struct Sample: Sendable, Equatable {
        /// Seconds on CLOCK_MONOTONIC (the kernel's timestamp, moved there when it is on another clock).
        public var time: Double
        public var x: Double
        public var y: Double
        public var z: Double
    }

    public let device: IIODevice
    /// The trigger driving the buffer, by its name.
    public let trigger: String
    /// Scans a second the trigger was asked for.
    public let rate: Double
    public let layout: IIOScanLayout
    private let scale: (x: Double, y: Double, z: Double)
    private let offsets: (x: Double, y: Double, z: Double)
    private let timestampClock: String?
    private var fd: Int32
    private var pending: [UInt8] = []
    private let node: String
    /// The buffer's `enable` attribute, which `close()` writes 0 to.
    private let bufferEnable: String

    /// Whether `device` has an accelerometer's buffered channels.
    public static func isAccelerometer(_ device: IIODevice) -> Bool {
        ["x", "y", "z"].allSatisfy { device.has("scan_elements/in_accel_\($0)_en") }
    }

    /// The first accelerometer under `root` (by path), or the device `choice` names (its sysfs path
    /// or its driver's name).
    public static func find(_ choice: String? = nil, root: String = IIODevice.root) -> IIODevice? {
        IIODevice.all(root: root).first { device in
            (choice == nil || device.path == choice || device.name == choice) && isAccelerometer(device)
        }
    }

    /// Sets the device up and starts its buffer. `nodes`: where its device node is (`/dev`).
    public init(
        _ device: IIODevice,
        rate: Double,
        root: String = IIODevice.root,
        nodes: String = "/dev",
        configfs: String = IIOAccelerometer.configfs
    ) throws(IIOSetupError) {
        self.device = device
        self.rate = rate
        let path = device.path
        let buffer = IIOSysfs.exists(path + "/buffer0/enable") ? path + "/buffer0" : path + "/buffer"
        bufferEnable = buffer + "/enable"
        // A buffer a crashed run left enabled takes no new trigger or channel.
        if IIOSysfs.read(buffer + "/enable") == "1" { try IIOSysfs.write("0", to: buffer + "/enable") }
        trigger = try Self.trigger(for: device, rate: rate, root: root, configfs: configfs)
        try IIOSysfs.write(trigger, to: path + "/trigger/current_trigger")
        // The chip's own output rate, where it has one: the nearest it offers at or above `rate`.
        for attribute in ["in_accel_sampling_frequency", "sampling_frequency"] where device.has(attribute) {
            let offered = (IIOSysfs.read(path + "/" + attribute + "_available") ?? "").split(separator: " ")
                .compactMap { Double($0) }.sorted()
            let chosen = offered.first { $0 >= rate } ?? offered.last ?? rate
            try? IIOSysfs.write(Self.text(chosen), to: path + "/" + attribute)
            break
        }
        // Only the channels read: the accelerometer's three and the timestamp.
        let scan = path + "/scan_elements"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: scan)) ?? []
        let wanted = ["accel_x", "accel_y", "accel_z", "timestamp"]
        for entry in entries where entry.hasSuffix("_en") {
            let name = String(entry.dropFirst(3).dropLast(3))
            try IIOSysfs.write(wanted.contains(name) ? "1" : "0", to: scan + "/" + entry)
        }
        var channels: [(name: String, index: Int, type: IIOChannelType)] = []
        for name in wanted {
            guard name == "timestamp" ? IIOSysfs.exists(scan + "/in_timestamp_en") : true else { continue }
            guard let indexText = IIOSysfs.read(scan + "/in_\(name)_index"), let index = Int(indexText) else {
                throw .channel(name: name, reason: "no scan index")
            }
            guard let typeText = IIOSysfs.read(scan + "/in_\(name)_type"), let type = IIOChannelType(parsing: typeText)
            else { throw .channel(name: name, reason: "no type the reader knows") }
            channels.append((name, index, type))
        }
        layout = IIOScanLayout(channels)
        func number(_ names: [String]) -> Double? {
            names.lazy.compactMap { try? device.number($0) }.first
        }
        func axis(_ axis: String) throws(IIOSetupError) -> (scale: Double, offset: Double) {
            guard let scale = number(["in_accel_\(axis)_scale", "in_accel_scale"]), scale.isFinite, scale > 0 else {
                throw .channel(name: "accel_\(axis)", reason: "no scale")
            }
            return (scale, number(["in_accel_\(axis)_offset", "in_accel_offset"]) ?? 0)
        }
        let x = try axis("x")
        let y = try axis("y")
        let z = try axis("z")
        scale = (x.scale, y.scale, z.scale)
        offsets = (x.offset, y.offset, z.offset)
        // The kernel stamps scans on CLOCK_REALTIME unless told otherwise; monotonic where it may be.
        if IIOSysfs.exists(path + "/current_timestamp_clock") {
            try? IIOSysfs.write("monotonic", to: path + "/current_timestamp_clock")
            timestampClock = IIOSysfs.read(path + "/current_timestamp_clock")
        } else {
            timestampClock = nil
        }
        // Two seconds of scans in the kernel's buffer: a reader late by a second loses nothing.
        let length = max(64, Int((rate * 2).rounded(.up)))
        try IIOSysfs.write(String(length), to: buffer + "/length")
        node = nodes + "/" + (path.split(separator: "/").last.map(String.init) ?? "")
        fd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .node(path: node, reason: String(cString: strerror(errno))) }
        do {
            try IIOSysfs.write("1", to: buffer + "/enable")
        } catch {
            Glibc.close(fd)
            fd = -1
            throw error
        }
    }

    deinit { close() }

    /// Stops the buffer and closes the node; nothing after it reads.
    public func close() {
        guard fd >= 0 else { return }
        try? IIOSysfs.write("0", to: bufferEnable)
        Glibc.close(fd)
        fd = -1
    }

    /// Every whole scan the kernel holds now (none when it holds none), in m/s² and monotonic
    /// seconds. Throws when the node fails (the device gone: ENODEV).
    public func read() throws(IIOReadError) -> [Sample] {
        guard fd >= 0 else { throw .unreadable(attribute: node, reason: "closed") }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if got > 0 {
                pending.append(contentsOf: chunk[0..<got])
                if got < chunk.count { break }
                continue
            }
            if got == 0 || errno == EAGAIN || errno == EWOULDBLOCK { break }
            if errno == EINTR { continue }
            throw .unreadable(attribute: node, reason: String(cString: strerror(errno)))
        }
        let now = (monotonic: MonotonicClock.now(), realtime: MonotonicClock.system())
        let scans = pending.count / layout.size
        guard scans > 0 else { return [] }
        var samples: [Sample] = []
        samples.reserveCapacity(scans)
        let ex = layout.element("accel_x")!
        let ey = layout.element("accel_y")!
        let ez = layout.element("accel_z")!
        let stamp = layout.element("timestamp")
        for n in 0..<scans {
            let start = n * layout.size
            let time: Double
            if let stamp {
                let seconds = Double(layout.value(stamp, in: pending, scanAt: start)) * 1e-9
                time = timestampClock == "monotonic" ? seconds : seconds - (now.realtime - now.monotonic)
            } else {
                time = now.monotonic - Double(scans - 1 - n) / rate
            }
            samples.append(
                Sample(
                    time: time,
                    x: (Double(layout.value(ex, in: pending, scanAt: start)) + offsets.x) * scale.x,
                    y: (Double(layout.value(ey, in: pending, scanAt: start)) + offsets.y) * scale.y,
                    z: (Double(layout.value(ez, in: pending, scanAt: start)) + offsets.z) * scale.z
                )
            )
        }
        pending.removeFirst(scans * layout.size)
        return samples
    }

    /// The device's own trigger (`bmi160-dev0`, from its data-ready interrupt), else the hrtimer
    /// trigger named `hrtimerName`, made in configfs when it is missing, at `rate`.
    static func trigger(
        for device: IIODevice,
        rate: Double,
        root: String,
        configfs: String
    ) throws(IIOSetupError)
        -> String
    {
        let named = triggers(root: root)
        if let own = named.first(where: { $0.name.hasPrefix(device.name + "-dev") }) { return own.name }
        var software = named.first { $0.name == hrtimerName }
        if software == nil {
            guard IIOSysfs.exists(configfs) else {
                throw .noTrigger(
                    reason: "\(device.name) has none of its own and \(configfs) is missing "
                        + "(modprobe iio-trig-hrtimer; mount configfs at /sys/kernel/config)"
                )
            }
            if mkdir(configfs + "/" + hrtimerName, 0o755) != 0, errno != EEXIST {
                throw .noTrigger(
                    reason: "\(device.name) has none of its own and \(configfs)/\(hrtimerName) "
                        + "could not be made: \(String(cString: strerror(errno)))"
                )
            }
            software = triggers(root: root).first { $0.name == hrtimerName }
        }
        guard let software else { throw .noTrigger(reason: "the hrtimer trigger \(hrtimerName) did not appear") }
        try IIOSysfs.write(text(rate), to: software.path + "/sampling_frequency")
        return software.name
    }

    /// The IIO triggers under `root` (`trigger0`...), by path, with their names.
    static func triggers(root: String) -> [(path: String, name: String)] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).filter { $0.hasPrefix("trigger") }.sorted()
            .compactMap { entry in IIOSysfs.read(root + "/" + entry + "/name").map { (root + "/" + entry, $0) } }
    }

    static func text(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
