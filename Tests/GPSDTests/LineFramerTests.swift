import Testing

@testable import LineFraming

@Suite struct LineFramerTests {
    /// Feeds `input` in pieces of `step` bytes and collects every frame, the trailing one included.
    func frames(_ input: String, step: Int, max: Int = 64) -> [LineFramer.Frame] {
        var framer = LineFramer(maxLineLength: max)
        var out: [LineFramer.Frame] = []
        let bytes = Array(input.utf8)
        var i = 0
        while i < bytes.count {
            framer.append(bytes[i..<min(i + step, bytes.count)])
            while let frame = framer.next() { out.append(frame) }
            i += step
        }
        if let last = framer.finish() { out.append(last) }
        return out
    }

    @Test(arguments: [1, 2, 3, 7, 1000])
    func theSameFramesWhateverTheChunking(step: Int) {
        let input = "{\"a\":1}\r\n\n{\"b\":2}\n" + String(repeating: "x", count: 100) + "\n{\"c\":3}"
        #expect(
            frames(input, step: step) == [
                .line(Array("{\"a\":1}".utf8)), .line([]), .line(Array("{\"b\":2}".utf8)),
                .oversized(byteCount: 100), .line(Array("{\"c\":3}".utf8)),
            ]
        )
    }

    @Test func anEndlessLineNeverGrowsTheBuffer() {
        var framer = LineFramer(maxLineLength: 1024)
        let chunk = [UInt8](repeating: 0x41, count: 4096)
        for _ in 0..<1000 {
            framer.append(chunk)
            #expect(framer.next() == nil)
        }
        framer.append(Array("\n{}\n".utf8))
        #expect(framer.next() == .oversized(byteCount: 4_096_000))
        #expect(framer.next() == .line(Array("{}".utf8)))
    }
}
