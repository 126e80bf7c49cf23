import Foundation

// MARK: - Typos
// A date with a mistyped word gets the nearest form that reads
// (`next tuseday` → `next tuesday`).

extension DueDateGrammar {
    /// Every word the grammar knows, for the nearest form to a mistyped one.
    static let knownWords: [String] = ["today", "tomorrow", "yesterday", "next", "week", "month", "year", "ago", "in",
                                       "days", "weeks", "months", "years", "noon", "midnight", "eow", "eom",
                                       "sod", "eod", "sow", "sonw", "eonw", "som", "soq", "eoq", "soy", "eoy", "someday", "later",
                                       "end", "start", "of", "at", "quarter"]
        + weekdays.flatMap { $0 } + months.flatMap { $0 }

    /// `text` with each unknown word replaced by the known word nearest to it
    /// (at most two edits away), if that reads as a date; nil otherwise.
    static func suggestion(for text: String, now: Date, in timeZone: TimeZone) -> String? {
        let words = text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty, words.count <= 5 else { return nil }
        var changed = false
        let mended = words.map { word -> String in
            guard word.count >= 3, word.allSatisfy(\.isLetter), !knownWords.contains(word) else { return word }
            let nearest = knownWords.map { ($0, editDistance(word, $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }
            guard let nearest else { return word }
            changed = true
            return nearest.0
        }
        let candidate = mended.joined(separator: " ")
        return changed && read(candidate, now: now, in: timeZone) != nil ? candidate : nil
    }

    /// Levenshtein distance, for short words.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }

    /// `12/24`, `24.12.`, `12/24/2026`: day and month in an order that differs
    /// from place to place, never guessed.
    public static func isNumericDate(_ text: String) -> Bool {
        let parts = text.split(whereSeparator: { $0 == "/" || $0 == "." }).map(String.init)
        return text.contains(where: { $0 == "/" || $0 == "." }) && (2...3).contains(parts.count)
            && parts.allSatisfy { !$0.isEmpty && $0.count <= 4 && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }
}
