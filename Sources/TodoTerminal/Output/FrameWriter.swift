/// Brings the screen from the last frame to the next one, ratatui-style: every
/// frame is drawn whole from the state, and only the lines that differ from
/// the last one are written, all in one string for one write.
public struct FrameWriter: Sendable {
    private var previous: [Line] = []
    private var previousSize: TerminalSize?
    public var usesColor: Bool

    public init(usesColor: Bool) {
        self.usesColor = usesColor
    }

    /// Forgets the screen: the next frame is written whole (after a resize,
    /// when what the terminal shows is not known any more).
    public mutating func invalidate() {
        previous = []
        previousSize = nil
    }

    /// What to write to show `lines` on a terminal of `size`: nothing if
    /// nothing changed, only the changed lines otherwise, the whole screen
    /// (cleared first) after a resize or `invalidate()`.
    public mutating func update(to lines: [Line], size: TerminalSize) -> String {
        var out = ""
        let full = previousSize != size
        if full { out += "\u{1B}[0m\u{1B}[2J" }
        for (row, line) in lines.prefix(size.rows).enumerated() {
            if !full, row < previous.count, previous[row] == line { continue }
            out += "\u{1B}[\(row + 1);1H"
            for span in line.spans {
                out += span.style.escape(usesColor: usesColor)
                out += span.text
            }
            out += "\u{1B}[0m"
            // Clear what the line does not cover. Not after a full line: the
            // cursor stays on the last column then, and would clear it.
            if line.displayWidth < size.columns { out += "\u{1B}[K" }
        }
        // Rows the new frame no longer covers.
        if !full, lines.count < previous.count {
            for row in lines.count..<min(previous.count, size.rows) {
                out += "\u{1B}[\(row + 1);1H\u{1B}[0m\u{1B}[K"
            }
        }
        previous = Array(lines.prefix(size.rows))
        previousSize = size
        return out
    }
}
