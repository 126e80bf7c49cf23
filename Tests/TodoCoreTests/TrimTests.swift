import Foundation
import Testing
import TodoCore

/// `trimmedASCIIWhitespace` takes off what Foundation's trimming of spaces,
/// tabs and line breaks takes off, byte by byte.
struct TrimTests {
    @Test func itTrimsAsFoundationDoes() {
        let pieces = [" ", "\t", "\n", "\r", "\r\n", "a", "é", "😀", "\u{301}", "b c"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<Int(state % 7) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text += pieces[Int(state >> 33) % pieces.count]
            }
            state = state &* 6_364_136_223_846_793_005 &+ 1
            #expect(text.trimmedASCIIWhitespace == text.trimmingCharacters(in: CharacterSet(charactersIn: " \t\n\r")), "\(Array(text.unicodeScalars))")
        }
    }
}
