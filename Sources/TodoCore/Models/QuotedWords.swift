/// A line's words as a person types them with no shell in between: runs of
/// non-spaces, or of anything between double quotes (`"call first"`, and
/// `""` for an empty word). The view's add and edit line reads its options
/// from them, and `todo edit --where` the filters given as one argument.
public enum QuotedWords {
    /// The words of `line`, each with whether it was quoted.
    public static func read(_ line: String) -> [(text: String, quoted: Bool)] {
        var words: [(text: String, quoted: Bool)] = []
        var current = ""
        var inQuotes = false
        var wasQuoted = false
        for character in line {
            if character == "\"" {
                inQuotes.toggle()
                wasQuoted = true
            } else if character.isWhitespace, !inQuotes {
                if !current.isEmpty || wasQuoted { words.append((current, wasQuoted)) }
                current = ""
                wasQuoted = false
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty || wasQuoted { words.append((current, wasQuoted)) }
        return words
    }
}
