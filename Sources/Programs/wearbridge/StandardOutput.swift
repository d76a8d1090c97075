import Foundation

/// The command's own output on stdout (results), apart from logs on stderr.
enum StandardOutput {
    static func line(_ text: String) {
        print(text)
    }

    /// Pushes buffered lines out now: `gps` is read live through pipes.
    static func flush() {
        // fflush(NULL) flushes every output stream, stdout included, without touching the global.
        fflush(nil)
    }
}

/// A one-line error for the person at the terminal, when there is no logger yet.
enum StandardError {
    static func line(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
