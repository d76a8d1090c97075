import RelayContract
import Testing

@Suite("Text from others, printed")
struct TerminalTextTests {
    @Test(
        "control characters and bidirectional overrides are written out, plain text is untouched",
        arguments: [
            ("bob cheated", "bob cheated"),
            ("\u{1B}[2J\u{1B}[31mred", "\\u001B[2J\\u001B[31mred"),
            ("\u{1B}]0;title\u{07}", "\\u001B]0;title\\u0007"),
            ("a\u{7F}b\u{85}c", "a\\u007Fb\\u0085c"),
            ("evil\u{202E}txt.exe", "evil\\u202Etxt.exe"),
            ("über 5 km — fine", "über 5 km — fine"),
            ("two\nlines\tand a tab", "two\\u000Alines\\u0009and a tab"),
        ]
    )
    func escapes(raw: String, printed: String) {
        #expect(TerminalText.escaped(raw) == printed)
    }

    @Test("lines and tabs stay when asked; a reason for the relay gets spaces")
    func keepsLines() {
        #expect(TerminalText.escaped("a\nb\t\u{1B}c", keepingLines: true) == "a\nb\t\\u001Bc")
        #expect(TerminalText.printable("wrong\u{1B}[31m shoes\n") == "wrong [31m shoes ")
    }
}
