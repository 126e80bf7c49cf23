import Foundation
import TodoCore

/// What `add` and `edit` read of Taskwarrior's words among a todo's, said on
/// standard error so a script's output stays the todo's
/// (`TaskwarriorWords.said`), and a hint for each word kept as text that
/// looks like an attribute.
enum TaskwarriorEcho {
    static func write(_ words: TaskwarriorWords, now: Date = Date(), timeZone: TimeZone = .current) {
        let lines = [words.said(now: now, timeZone: timeZone)].compactMap(\.self) + words.hints.map(TaskwarriorWords.hint(for:))
        guard !lines.isEmpty else { return }
        FileHandle.standardError.write(Data(lines.map { $0 + "\n" }.joined().utf8))
    }
}
