import Foundation

/// Writes a stand-in tool (a shell script) from a child shell, never through a descriptor of ours.
///
/// A script this process wrote could not always be run: while its write descriptor was open, a
/// player spawned by a test running beside it inherited that descriptor between fork and exec, and
/// `exec` of the script then failed with ETXTBSY ("Text file busy", seen once in CI). The child
/// writes, closes and exits before the script is ever run, so no process of ours holds it open.
enum StandInTool {
    static func write(_ body: String, to script: URL) throws {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = [
            "-c", #"printf '%s\n' "$2" > "$1" && chmod 755 "$1""#, "sh", script.path, "#!/bin/sh\n\(body)",
        ]
        try shell.run()
        shell.waitUntilExit()
        guard shell.terminationReason == .exit, shell.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: script.path])
        }
    }
}
