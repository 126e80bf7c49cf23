/// A run of text in one style.
public struct Span: Sendable, Hashable {
    public var text: String
    public var style: TextStyle

    public init(_ text: String, _ style: TextStyle = .plain) {
        self.text = text
        self.style = style
    }
}

/// One line of a frame: styled runs, laid out from the left edge.
public struct Line: Sendable, Hashable, ExpressibleByStringLiteral {
    public var spans: [Span]

    public init(_ spans: [Span]) {
        self.spans = spans
    }

    public init(_ text: String, _ style: TextStyle = .plain) {
        spans = [Span(text, style)]
    }

    public init(stringLiteral text: String) {
        self.init(text)
    }

    /// The text without styles: what a test compares.
    public var text: String { spans.map(\.text).joined() }

    public var displayWidth: Int { spans.reduce(0) { $0 + $1.text.displayWidth } }

    /// This line cut or padded with spaces to exactly `width` columns; the
    /// padding takes the style of `fill`.
    public func fitted(toWidth width: Int, fill: TextStyle = .plain) -> Line {
        var result: [Span] = []
        var used = 0
        for span in spans {
            let room = width - used
            guard room > 0 else { break }
            let spanWidth = span.text.displayWidth
            if spanWidth <= room {
                result.append(span)
                used += spanWidth
            } else {
                // The line goes on past the edge: cut here, with "…".
                let cut = span.text.truncated(toWidth: room)
                result.append(Span(cut.displayWidth == room ? cut : cut + " ", span.style))
                used = width
            }
        }
        if used < width {
            result.append(Span(String(repeating: " ", count: width - used), fill))
        }
        return Line(result)
    }
}
