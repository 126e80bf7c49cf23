import Foundation

/// Dates as ISO 8601 text in UTC with milliseconds, `2026-11-21T09:30:00.000Z`:
/// the form every JSON output uses. Formatting is done by hand because an
/// export of a million todos formats three million dates.
public enum ISO8601 {
    public static func string(from date: Date) -> String {
        string(fromMilliseconds: date.millisecondsSince1970)
    }

    public static func string(fromMilliseconds milliseconds: Int64) -> String {
        let (days, msOfDay) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (day, ms) = msOfDay < 0 ? (days - 1, msOfDay + 86_400_000) : (days, msOfDay)
        let date = CalendarDay(daysSince1970: Int(day))
        guard (0...9999).contains(date.year) else { return paddedString(date, ms) }
        // 24 ASCII bytes written in place: a sync writes four dates a todo,
        // and building them from padded pieces took 5 µs each.
        return String(unsafeUninitializedCapacity: 24) { buffer in
            var end = 0
            func put(_ value: Int, _ width: Int, then separator: UInt8) {
                var value = value
                for place in stride(from: end + width - 1, through: end, by: -1) {
                    buffer[place] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                buffer[end + width] = separator
                end += width + 1
            }
            put(date.year, 4, then: UInt8(ascii: "-"))
            put(date.month, 2, then: UInt8(ascii: "-"))
            put(date.day, 2, then: UInt8(ascii: "T"))
            put(Int(ms / 3_600_000), 2, then: UInt8(ascii: ":"))
            put(Int(ms / 60_000 % 60), 2, then: UInt8(ascii: ":"))
            put(Int(ms / 1000 % 60), 2, then: UInt8(ascii: "."))
            put(Int(ms % 1000), 3, then: UInt8(ascii: "Z"))
            return end
        }
    }

    /// `string(fromMilliseconds:)` from padded pieces: for any year, and the
    /// reference the fast path is checked against.
    static func paddedString(_ date: CalendarDay, _ ms: Int64) -> String {
        var out = ""
        out.reserveCapacity(24)
        out += pad(Int64(date.year), 4) + "-" + pad(Int64(date.month), 2) + "-" + pad(Int64(date.day), 2)
        out += "T" + pad(ms / 3_600_000, 2) + ":" + pad(ms / 60_000 % 60, 2) + ":" + pad(ms / 1000 % 60, 2)
        out += "." + pad(ms % 1000, 3) + "Z"
        return out
    }

    /// Parses ISO 8601 text with or without fractional seconds, in UTC (`Z`)
    /// or with an offset; nil if it is not such a date.
    public static func date(from text: String) -> Date? {
        if let milliseconds = canonicalMilliseconds(text) {
            return Date(millisecondsSince1970: milliseconds)
        }
        return dateByFormatStyle(text)
    }

    /// `date(from:)` by Foundation's parser, for any form.
    static func dateByFormatStyle(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date.roundedToMilliseconds
        }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) {
            return date.roundedToMilliseconds
        }
        return nil
    }

    /// The milliseconds of text in exactly the form `string` writes, with a
    /// real date from 1600 on, read by hand; nil for anything else, which is
    /// left to Foundation. An import or a sync reads a date or three per todo.
    static func canonicalMilliseconds(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { bytes -> Int64? in
            guard bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
                  bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
                  bytes[19] == UInt8(ascii: "."), bytes[23] == UInt8(ascii: "Z")
            else { return nil }
            func number(_ start: Int, _ count: Int) -> Int64? {
                var value: Int64 = 0
                for byte in bytes[start..<start + count] {
                    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                    value = value * 10 + Int64(byte - UInt8(ascii: "0"))
                }
                return value
            }
            guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
                  let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
                  let millisecond = number(20, 3),
                  year >= 1600, let date = CalendarDay(year: Int(year), month: Int(month), day: Int(day)),
                  hour < 24, minute < 60, second < 60
            else { return nil }
            let days = Int64(date.daysSince1970)
            return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millisecond
        }
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
