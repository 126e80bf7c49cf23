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
        let (year, month, dayOfMonth) = civil(fromDays: day)
        var out = ""
        out.reserveCapacity(24)
        out += pad(year, 4) + "-" + pad(month, 2) + "-" + pad(dayOfMonth, 2)
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
                  year >= 1600, (1...12).contains(month), day >= 1, day <= daysInMonth(month, year: year),
                  hour < 24, minute < 60, second < 60
            else { return nil }
            let days = days(fromCivil: year, month, day)
            return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millisecond
        }
    }

    private static func daysInMonth(_ month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 from year, month, day (Howard Hinnant's algorithm).
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Year, month, day from days since 1970-01-01 (Howard Hinnant's algorithm).
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
