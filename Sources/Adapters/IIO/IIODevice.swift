import Foundation

/// A device of the kernel's Industrial I/O subsystem, as sysfs shows it
/// (`/sys/bus/iio/devices/iio:deviceN`, its driver's name in `name`).
public struct IIODevice: Sendable, Equatable {
    public static let root = "/sys/bus/iio/devices"

    /// The device's sysfs folder.
    public var path: String
    /// The driver's name for the chip (`bmp280`, `bmi160`, `lsm6ds3`).
    public var name: String

    public init(path: String, name: String) {
        self.path = path
        self.name = name
    }

    /// Every IIO device under `root` (triggers, which are not devices, left out), by path.
    public static func all(root: String = root) -> [IIODevice] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return entries.filter { $0.hasPrefix("iio:device") }.sorted().compactMap { entry in
            let path = root + "/" + entry
            guard let name = try? String(contentsOfFile: path + "/name", encoding: .utf8) else { return nil }
            return IIODevice(path: path, name: name.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Whether the device has the channel's attribute (`in_pressure_input`).
    public func has(_ attribute: String) -> Bool {
        FileManager.default.fileExists(atPath: path + "/" + attribute)
    }

    /// One attribute's number, as the kernel prints it.
    public func number(_ attribute: String) throws(IIOReadError) -> Double {
        let text: String
        do {
            text = try String(contentsOfFile: path + "/" + attribute, encoding: .utf8)
        } catch {
            throw .unreadable(attribute: attribute, reason: Self.reason(error))
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let value = Double(trimmed), value.isFinite else {
            throw .notANumber(attribute: attribute, text: String(trimmed.prefix(40)))
        }
        return value
    }

    private static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.code, underlying?.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(code)))
        }
        return (error as NSError).localizedDescription
    }
}

/// Why an IIO attribute gave no number.
public enum IIOReadError: Error, Equatable, CustomStringConvertible {
    /// The read failed: the device gone, an I2C transfer that failed (EIO), a driver busy.
    case unreadable(attribute: String, reason: String)
    case notANumber(attribute: String, text: String)

    public var description: String {
        switch self {
        case .unreadable(let attribute, let reason): "\(attribute): \(reason)"
        case .notANumber(let attribute, let text): "\(attribute): not a number: \"\(text)\""
        }
    }
}
