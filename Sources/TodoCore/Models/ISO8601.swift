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
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date.roundedToMilliseconds
        }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) {
            return date.roundedToMilliseconds
        }
        return nil
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
