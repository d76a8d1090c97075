/// The command's own output on stdout (results), apart from logs on stderr.
enum StandardOutput {
    static func line(_ text: String) {
        print(text)
    }
}
