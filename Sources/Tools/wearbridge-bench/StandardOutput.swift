/// The benchmark's figures on stdout.
enum StandardOutput {
    static func line(_ text: String) {
        print(text)
    }
}
