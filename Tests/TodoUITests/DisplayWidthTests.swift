import Testing
import TodoTerminal

@Suite("Display width")
struct DisplayWidthTests {
    @Test(arguments: [
        ("abc", 3),
        ("日本語", 6),
        ("e\u{301}", 1),
        ("👍", 2),
        ("👩‍👩‍👧", 2),
        ("🇫🇷", 2),
        ("❤️", 2),
        ("한국어", 6),
        ("Ｆｕｌｌ", 8),
        ("Crème brûlée", 12),
    ])
    func widthIsCountedPerGrapheme(text: String, width: Int) {
        #expect(text.displayWidth == width)
    }

    @Test func truncationCutsAtAGraphemeBoundaryWithAnEllipsis() {
        #expect("buy milk".truncated(toWidth: 8) == "buy milk")
        #expect("buy milk".truncated(toWidth: 5) == "buy …")
        // A wide character that would straddle the edge is left out whole.
        #expect("日本語".truncated(toWidth: 4) == "日…")
        #expect("日本語".truncated(toWidth: 5) == "日本…")
        // A combining mark stays with its letter.
        #expect("cafe\u{301}s".truncated(toWidth: 5) == "cafe\u{301}s")
        #expect("cafe\u{301}s au lait".truncated(toWidth: 5) == "cafe\u{301}…")
        #expect("👩‍👩‍👧👩‍👩‍👧".truncated(toWidth: 3) == "👩‍👩‍👧…")
    }

    @Test func fittingPadsToTheExactWidth() {
        #expect("日本".fitted(toWidth: 6) == "日本  ")
        #expect("日本語".fitted(toWidth: 5).displayWidth == 5)
    }

    @Test func wrappingBreaksAtSpacesByDisplayWidth() {
        #expect("buy oat milk".wrapped(toWidth: 20) == ["buy oat milk"])
        #expect("buy oat milk and bread".wrapped(toWidth: 12) == ["buy oat milk", "and bread"])
        // Wide characters count two columns each.
        #expect("日本語 の テキスト".wrapped(toWidth: 8) == ["日本語", "の", "テキスト"])
        // A word wider than a line is broken between characters, never inside one.
        #expect("abcdefghij xy".wrapped(toWidth: 4) == ["abcd", "efgh", "ij", "xy"])
        #expect("日本語日本語".wrapped(toWidth: 5) == ["日本", "語日", "本語"])
    }
}
