import Foundation
import Testing

@testable import IIO

/// The buffered accelerometer against sysfs and a device node laid out as the kernel lays them
/// out for a BMI160 (its scan indices, types and scale): the attributes it writes, the trigger it
/// picks, and the scans it decodes. The kernel's own driver is met in the IIO VM.
@Suite struct IIOAccelerometerTests {
    let root: String
    let nodes: String
    let configfs: String

    init() throws {
        let base = NSTemporaryDirectory() + "iio-accel-\(UUID().uuidString)"
        root = base + "/sys"
        nodes = base + "/dev"
        configfs = base + "/configfs"
        for path in [root, nodes] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
    }

    func write(_ text: String, _ path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true
        )
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    func read(_ path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A BMI160 as its driver shows it: gyroscope at scan indices 4-6, accelerometer 7-9, the
    /// timestamp 10; ±8 g.
    func bmi160(trigger: String? = nil) throws -> String {
        let path = root + "/iio:device0"
        try write("bmi160\n", path + "/name")
        for (index, channel) in ["anglvel_x", "anglvel_y", "anglvel_z", "accel_x", "accel_y", "accel_z"].enumerated() {
            try write("0\n", path + "/scan_elements/in_\(channel)_en")
            try write("\(index + 4)\n", path + "/scan_elements/in_\(channel)_index")
            try write("le:s16/16>>0\n", path + "/scan_elements/in_\(channel)_type")
        }
        try write("0\n", path + "/scan_elements/in_timestamp_en")
        try write("10\n", path + "/scan_elements/in_timestamp_index")
        try write("le:s64/64>>0\n", path + "/scan_elements/in_timestamp_type")
        try write("0.002394\n", path + "/in_accel_scale")
        try write("100.000000\n", path + "/in_accel_sampling_frequency")
        try write("25.000000 50.000000 100.000000 200.000000\n", path + "/in_accel_sampling_frequency_available")
        try write("realtime\n", path + "/current_timestamp_clock")
        try write("\n", path + "/trigger/current_trigger")
        try write("0\n", path + "/buffer/enable")
        try write("0\n", path + "/buffer/length")
        if let trigger {
            try write(trigger + "\n", root + "/trigger0/name")
            try write("0\n", root + "/trigger0/sampling_frequency")
        }
        return path
    }

    @Test func typesAreReadAsTheKernelWritesThem() throws {
        let s16 = try #require(IIOChannelType(parsing: "le:s16/16>>0\n"))
        #expect(s16 == IIOChannelType(littleEndian: true, signed: true, bits: 16, storageBits: 16))
        #expect(s16.value(in: [0x18, 0xfc], at: 0) == -1000)
        let packed = try #require(IIOChannelType(parsing: "be:s12/16>>4"))
        #expect(packed.value(in: [0x80, 0x00], at: 0) == -2048)
        #expect(packed.value(in: [0x7f, 0xf0], at: 0) == 2047)
        let unsigned = try #require(IIOChannelType(parsing: "le:u10/16>>0"))
        #expect(unsigned.value(in: [0xff, 0xff], at: 0) == 1023)
        let repeated = try #require(IIOChannelType(parsing: "le:s16/16X3>>0"))
        #expect(repeated.repeats == 3)
        for bad in ["", "xe:s16/16>>0", "le:q16/16", "le:s16/24>>0", "le:s17/16>>0", "le:s12/16>>8", "le:s16"] {
            #expect(IIOChannelType(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func aScanIsLaidOutByIndexEachValueAlignedToItsSize() throws {
        let s16 = IIOChannelType(littleEndian: true, signed: true, bits: 16, storageBits: 16)
        let s64 = IIOChannelType(littleEndian: true, signed: true, bits: 64, storageBits: 64)
        let layout = IIOScanLayout([
            ("timestamp", 10, s64), ("accel_z", 9, s16), ("accel_x", 7, s16), ("accel_y", 8, s16),
        ])
        #expect(layout.elements.map(\.name) == ["accel_x", "accel_y", "accel_z", "timestamp"])
        #expect(layout.elements.map(\.offset) == [0, 2, 4, 8])
        #expect(layout.size == 16)
        let odd = IIOScanLayout([
            ("a", 0, IIOChannelType(littleEndian: true, signed: false, bits: 8, storageBits: 8)), ("b", 1, s16),
        ])
        #expect(odd.elements.map(\.offset) == [0, 2])
        #expect(odd.size == 4)
    }

    @Test func theDeviceOwnTriggerIsTakenAndOnlyTheAccelerometerAndTimestampAreEnabled() throws {
        let path = try bmi160(trigger: "bmi160-dev0")
        // Two scans as the driver pushes them: x, y, z, padding, the timestamp (ns, realtime).
        var bytes: [UInt8] = []
        let realtime = Date().timeIntervalSince1970
        for (i, counts) in [(Int16(0), Int16(0), Int16(4096)), (Int16(-1000), Int16(500), Int16(4100))].enumerated() {
            for value in [counts.0, counts.1, counts.2, 0] {
                bytes += withUnsafeBytes(of: value.littleEndian, Array.init)
            }
            let ns = Int64((realtime + Double(i) * 0.01) * 1e9)
            bytes += withUnsafeBytes(of: ns.littleEndian, Array.init)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: nodes + "/iio:device0"))
        let device = try #require(IIOAccelerometer.find("bmi160", root: root))
        let accelerometer = try IIOAccelerometer(device, rate: 100, root: root, nodes: nodes, configfs: configfs)
        #expect(accelerometer.trigger == "bmi160-dev0")
        #expect(read(path + "/trigger/current_trigger") == "bmi160-dev0")
        #expect(read(path + "/scan_elements/in_accel_x_en") == "1")
        #expect(read(path + "/scan_elements/in_timestamp_en") == "1")
        #expect(read(path + "/scan_elements/in_anglvel_x_en") == "0")
        #expect(read(path + "/in_accel_sampling_frequency") == "100")
        #expect(read(path + "/current_timestamp_clock") == "monotonic")
        #expect(read(path + "/buffer/length") == "200")
        #expect(read(path + "/buffer/enable") == "1")
        let samples = try accelerometer.read()
        #expect(samples.count == 2)
        #expect(abs(samples[0].z - 4096 * 0.002394) < 1e-9)
        #expect(abs(samples[1].x - -1000 * 0.002394) < 1e-9)
        #expect(abs(samples[1].y - 500 * 0.002394) < 1e-9)
        // The clock file here took "monotonic", so the stamps are read as monotonic already.
        #expect(abs(samples[1].time - samples[0].time - 0.01) < 1e-6)
        #expect(try accelerometer.read().isEmpty, "nothing new")
        accelerometer.close()
        #expect(read(path + "/buffer/enable") == "0")
    }

    @Test func withoutATriggerOfItsOwnItMakesAnHrtimerOneOrSaysWhyNot() throws {
        let path = try bmi160()
        let device = try #require(IIOAccelerometer.find(root: root))
        #expect(throws: IIOSetupError.self) {
            try IIOAccelerometer(device, rate: 100, root: root, nodes: nodes, configfs: configfs)
        }
        do {
            _ = try IIOAccelerometer(device, rate: 100, root: root, nodes: nodes, configfs: configfs)
        } catch {
            #expect(error.description.contains("modprobe iio-trig-hrtimer"), "\(error)")
        }
        // configfs there: the trigger's folder is made; here no kernel makes the trigger of it.
        try FileManager.default.createDirectory(atPath: configfs, withIntermediateDirectories: true)
        do {
            _ = try IIOAccelerometer(device, rate: 100, root: root, nodes: nodes, configfs: configfs)
            Issue.record("set up without a trigger")
        } catch {
            #expect(error == .noTrigger(reason: "the hrtimer trigger wearbridge did not appear"))
        }
        #expect(FileManager.default.fileExists(atPath: configfs + "/wearbridge"))
        // The kernel's trigger, as it appears once made: taken, at the rate asked.
        try write("wearbridge\n", root + "/trigger1/name")
        try write("0\n", root + "/trigger1/sampling_frequency")
        try Data().write(to: URL(fileURLWithPath: nodes + "/iio:device0"))
        let accelerometer = try IIOAccelerometer(device, rate: 50, root: root, nodes: nodes, configfs: configfs)
        #expect(accelerometer.trigger == "wearbridge")
        #expect(read(root + "/trigger1/sampling_frequency") == "50")
        #expect(read(path + "/trigger/current_trigger") == "wearbridge")
        #expect(read(path + "/in_accel_sampling_frequency") == "50")
        #expect(try accelerometer.read().isEmpty)
    }

    @Test func aDeviceWithoutAScaleOrANodeIsRefusedByName() throws {
        let path = try bmi160(trigger: "bmi160-dev0")
        let device = try #require(IIOAccelerometer.find(root: root))
        #expect(throws: IIOSetupError.node(path: nodes + "/iio:device0", reason: "No such file or directory")) {
            try IIOAccelerometer(device, rate: 100, root: root, nodes: nodes, configfs: configfs)
        }
        try FileManager.default.removeItem(atPath: path + "/in_accel_scale")
        #expect(throws: IIOSetupError.channel(name: "accel_x", reason: "no scale")) {
            try IIOAccelerometer(device, rate: 100, root: root, nodes: nodes, configfs: configfs)
        }
        #expect(IIOAccelerometer.find("bmp280", root: root) == nil)
    }
}
