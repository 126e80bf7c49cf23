import Foundation

extension RepeatWords {
    /// The words a repeat is written in, for mending a typo.
    static let vocabulary: [String] = [
        "daily", "weekly", "monthly", "yearly", "annually", "weekdays", "weekends", "every", "other", "biweekly", "fortnightly",
        "quarterly", "semiannually", "day", "days", "week", "weeks", "month", "months", "year", "years", "last", "first",
        "second", "third", "fourth", "fifth", "weekday", "times", "until", "except", "from", "completion",
    ] + weekdayNames + monthNames

    /// The nearest repeat to `text` a typo or two away (`wekdays`, `every 2
    /// wekes`), if mending its words makes one.
    public static func nearest(_ text: String) -> String? {
        var changed = false
        let mended = text.lowercased().split(separator: " ", omittingEmptySubsequences: true).map { word -> String in
            let word = String(word)
            guard word.count >= 4, word.allSatisfy(\.isLetter), !vocabulary.contains(word), weekday(word) == nil, month(word) == nil,
                  let nearest = vocabulary.map({ ($0, DueDateGrammar.editDistance(word, $0)) }).min(by: { $0.1 < $1.1 }),
                  nearest.1 <= (word.count >= 7 ? 2 : 1) else { return word }
            changed = true
            return nearest.0
        }
        let candidate = mended.joined(separator: " ")
        return changed && TodoRepeat(parsing: candidate) != nil ? candidate : nil
    }
}
