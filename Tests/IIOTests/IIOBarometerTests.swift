import Foundation
import Testing

@testable import IIO

/// The sysfs attributes as the kernel's drivers lay them out (a folder per device, one number per
/// file); the drivers themselves are met in the virtual wearable's kernel.
@Suite struct IIOBarometerTests {
    let root: String

    init() throws {
        root = NSTemporaryDirectory() + "iio-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    func device(_ index: Int, _ attributes: [String: String]) throws {
        let path = root + "/iio:device\(index)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, text) in attributes { try text.write(toFile: path + "/" + name, atomically: true, encoding: .utf8) }
    }

    @Test func theFirstDeviceWithAPressureChannelIsTheBarometer() throws {
        try device(0, ["name": "bmi160\n", "in_accel_x_raw": "12\n"])
        try device(1, ["name": "bmp280\n", "in_pressure_input": "100.913953125\n", "in_temp_input": "21230\n"])
        try FileManager.default.createDirectory(atPath: root + "/trigger0", withIntermediateDirectories: true)
        let found = try #require(IIOBarometer.find(root: root))
        #expect(found.device.name == "bmp280")
        #expect(try found.read() == 100.913953125)
        #expect(IIOBarometer.find("bmi160", root: root) == nil)
        #expect(IIOBarometer.find(root + "/iio:device1", root: root)?.device.name == "bmp280")
    }

    @Test func aRawChannelIsScaled() throws {
        try device(0, ["name": "lps22hb\n", "in_pressure_raw": "4133120\n", "in_pressure_scale": "0.000024414\n"])
        let found = try #require(IIOBarometer.find(root: root))
        #expect(abs(try found.read() - 100.9060) < 0.001)
    }

    @Test func whatIsNoNumberIsAnError() throws {
        try device(0, ["name": "bmp280\n", "in_pressure_input": "\n"])
        let found = try #require(IIOBarometer.find(root: root))
        #expect(throws: IIOReadError.notANumber(attribute: "in_pressure_input", text: "")) { try found.read() }
        try FileManager.default.removeItem(atPath: root + "/iio:device0/in_pressure_input")
        #expect(throws: IIOReadError.self) { try found.read() }
    }
}
