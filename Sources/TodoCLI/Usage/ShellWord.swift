/// Words as a user would type them into a shell, for messages that show a
/// command to run.
enum ShellWord {
    /// `text` as one shell word: as it is when it holds only letters, digits
    /// and `- _ . /`, else in single quotes.
    static func quoted(_ text: String) -> String {
        text.allSatisfy { $0.isLetter || $0.isNumber || "-_./".contains($0) }
            ? text
            : "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
