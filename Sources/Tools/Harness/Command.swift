import Foundation

/// A program run to completion with its output captured, as a user would run it.
public enum Command {
    public static func run(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String]? = nil
    )
        throws -> (status: Int32, out: String, err: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outData, as: UTF8.self),
            String(decoding: errData, as: UTF8.self)
        )
    }

    /// The built `wearbridge` executable: `$WEARBRIDGE_BIN`, or the one in the build folder above
    /// the running test bundle or benchmark.
    public static let wearbridge: String = {
        if let path = ProcessInfo.processInfo.environment["WEARBRIDGE_BIN"] { return path }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent("wearbridge").path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue {
                return candidate
            }
            dir = dir.deletingLastPathComponent()
        }
        return ".build/debug/wearbridge"
    }()
}
