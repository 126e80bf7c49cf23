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
}
