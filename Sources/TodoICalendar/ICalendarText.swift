/// The TEXT value type of RFC 5545 (3.3.11): `\\`, `\;`, `\,` and `\n` (or
/// `\N`) stand for a backslash, a semicolon, a comma and a line break.
///
/// Read and written scalar by scalar, never by `Character`: a combining mark
/// after `n` or `,` joins it into one grapheme, and must not hide the escape
/// or the separator.
public enum ICalendarText {
    /// `text` as a TEXT value; a CR LF pair, a CR or an LF is one line break.
    public static func escape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            switch scalar {
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case ";": out.append(contentsOf: "\\;".unicodeScalars)
            case ",": out.append(contentsOf: "\\,".unicodeScalars)
            case "\n" where previous == "\r": continue
            case "\n", "\r": out.append(contentsOf: "\\n".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// The text a TEXT value stands for. A backslash before any other
    /// character is kept with it, as clients that escape too much expect.
    public static func unescape(_ value: Substring) -> String {
        guard value.unicodeScalars.contains("\\") else { return String(value) }
        var out = String.UnicodeScalarView()
        var escaped = false
        for scalar in value.unicodeScalars {
            if escaped {
                switch scalar {
                case "n", "N": out.append("\n")
                case "\\", ";", ",": out.append(scalar)
                default: out.append("\\"); out.append(scalar)
                }
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else {
                out.append(scalar)
            }
        }
        if escaped { out.append("\\") }
        return String(out)
    }

    /// A list of TEXT values (CATEGORIES), split at the commas not escaped.
    public static func list(_ value: String) -> [String] {
        var parts: [String] = []
        let scalars = value.unicodeScalars
        var start = scalars.startIndex
        var index = scalars.startIndex
        var escaped = false
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if escaped {
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == "," {
                parts.append(unescape(Substring(scalars[start..<index])))
                start = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        parts.append(unescape(Substring(scalars[start...])))
        return parts
    }
}
