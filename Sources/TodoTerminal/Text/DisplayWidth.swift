/// How many terminal columns text takes, per grapheme (user-perceived
/// character): East Asian wide and fullwidth characters and emoji take two,
/// combining marks and other zero-width scalars none, the rest one.
///
/// A terminal lays out a grapheme by its first scalar, widened by an emoji
/// presentation selector; marks and joiners after it add nothing.
extension Character {
    public var displayWidth: Int {
        let scalars = unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x7F { return first.value < 0x20 ? 0 : 1 }
        let base = DisplayWidth.width(of: first)
        if base == 1, first.properties.isEmoji, scalars.contains("\u{FE0F}") { return 2 }
        return base
    }
}

extension StringProtocol {
    /// The columns the text takes: the sum of its graphemes' widths.
    public var displayWidth: Int {
        // ASCII, the common case, is one column a byte (controls aside).
        if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return utf8.count }
        return reduce(0) { $0 + $1.displayWidth }
    }
}

extension String {
    /// The text cut to at most `width` columns, at a grapheme boundary, ending
    /// with "…" when something was cut.
    public func truncated(toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        guard displayWidth > width else { return self }
        var result = ""
        var used = 0
        for character in self {
            let next = character.displayWidth
            // Leave the last column for the ellipsis.
            if used + next > width - 1 { break }
            result.append(character)
            used += next
        }
        return result + "…"
    }

    /// The text in lines of at most `width` columns, broken at spaces where it
    /// can be and between characters where a word alone is too wide; the
    /// spaces a line is broken at are dropped.
    public func wrapped(toWidth width: Int) -> [String] {
        guard width > 0, displayWidth > width else { return [self] }
        var lines: [String] = []
        var line = ""
        var used = 0
        for part in split(separator: " ", omittingEmptySubsequences: false) {
            var word = part
            let wordWidth = word.displayWidth
            if used > 0 && used + 1 + wordWidth <= width {
                line += " " + word
                used += 1 + wordWidth
                continue
            }
            if used > 0 {
                lines.append(line)
                line = ""
                used = 0
            }
            // A word wider than a line fills whole lines, character by character.
            while word.displayWidth > width {
                var piece = ""
                var pieceWidth = 0
                while let character = word.first, pieceWidth + character.displayWidth <= width || piece.isEmpty {
                    piece.append(character)
                    pieceWidth += character.displayWidth
                    word = word.dropFirst()
                }
                lines.append(piece)
            }
            line = String(word)
            used = word.displayWidth
        }
        lines.append(line)
        return lines
    }

    /// The text cut or padded with spaces to exactly `width` columns.
    public func fitted(toWidth width: Int) -> String {
        let cut = truncated(toWidth: width)
        let missing = width - cut.displayWidth
        return missing > 0 ? cut + String(repeating: " ", count: missing) : cut
    }
}

enum DisplayWidth {
    /// The width of a grapheme's first scalar.
    static func width(of scalar: Unicode.Scalar) -> Int {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator, .paragraphSeparator:
            return 0
        default:
            break
        }
        if properties.isEmojiPresentation || isWide(scalar.value) { return 2 }
        return 1
    }

    /// Whether a code point is East Asian Wide or Fullwidth (Unicode's
    /// EastAsianWidth.txt, W and F, the ranges outside emoji, which Swift's
    /// `isEmojiPresentation` answers).
    static func isWide(_ value: UInt32) -> Bool {
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// Sorted, not overlapping.
    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, // Hangul Jamo initial consonants
        0x2329...0x232A, // angle brackets
        0x2E80...0x303E, // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
        0x3041...0x33FF, // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK compatibility
        0x3400...0x4DBF, // CJK unified ideographs extension A
        0x4E00...0x9FFF, // CJK unified ideographs
        0xA000...0xA4CF, // Yi
        0xA960...0xA97F, // Hangul Jamo extended A
        0xAC00...0xD7A3, // Hangul syllables
        0xF900...0xFAFF, // CJK compatibility ideographs
        0xFE10...0xFE19, // vertical forms
        0xFE30...0xFE6F, // CJK compatibility forms, small form variants
        0xFF00...0xFF60, // fullwidth forms
        0xFFE0...0xFFE6, // fullwidth signs
        0x16FE0...0x16FE4, // ideographic symbols
        0x17000...0x18CFF, // Tangut
        0x1AFF0...0x1B2FF, // Kana supplement and extensions, Nüshu
        0x1F200...0x1F2FF, // enclosed ideographic supplement
        0x20000...0x2FFFD, // CJK extensions B to F, compatibility supplement
        0x30000...0x3FFFD, // CJK extension G and after
    ]
}
