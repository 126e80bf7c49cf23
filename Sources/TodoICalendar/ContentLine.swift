/// One content line of an iCalendar object (RFC 5545, 3.1), unfolded:
/// `NAME;PARAM=value,value:VALUE`.
///
/// A line read from a client keeps its bytes as they came (`original`, folds
/// included, line breaks as CRLF): written back unchanged, it comes back byte
/// for byte. A line
/// made or changed here has none and is written, and folded, anew.
public struct ContentLine: Sendable, Equatable {
    public struct Parameter: Sendable, Equatable {
        public var name: String
        /// The values, without the double quotes a value may be written in.
        public var values: [String]

        public init(name: String, values: [String]) {
            self.name = name
            self.values = values
        }
    }

    /// As written; compare with `is(_:)`, names are case-insensitive.
    public var name: String
    public var parameters: [Parameter]
    /// The value as written, escapes and all (see `ICalendarText`).
    public var value: String
    /// The folded bytes this line was read from, without its line break.
    public var original: [UInt8]?

    public init(name: String, parameters: [Parameter] = [], value: String) {
        self.name = name
        self.parameters = parameters
        self.value = value
        self.original = nil
    }

    /// Whether this line's name is `name` (given in upper case).
    public func `is`(_ name: String) -> Bool {
        // Most clients write names in upper case: compared as they are first.
        self.name == name || (self.name.utf8.count == name.utf8.count && self.name.uppercased() == name)
    }

    /// The first value of the parameter `name` (given in upper case), if present.
    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name.uppercased() == name }?.values.first
    }

    /// Reads one unfolded line; nil if it is not `name *(";" param) ":" value`.
    init?(unfolded line: Substring.UTF8View, original: [UInt8]) {
        var index = line.startIndex
        func isNameByte(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
        }
        func name() -> String? {
            let start = index
            while index < line.endIndex, isNameByte(line[index]) { index = line.index(after: index) }
            return start == index ? nil : String(Substring(line[start..<index]))
        }
        guard let lineName = name() else { return nil }
        var parameters: [Parameter] = []
        while index < line.endIndex, line[index] == UInt8(ascii: ";") {
            index = line.index(after: index)
            guard let parameterName = name(), index < line.endIndex, line[index] == UInt8(ascii: "=") else { return nil }
            index = line.index(after: index)
            var values: [String] = []
            while true {
                if index < line.endIndex, line[index] == UInt8(ascii: "\"") {
                    index = line.index(after: index)
                    let start = index
                    while index < line.endIndex, line[index] != UInt8(ascii: "\"") { index = line.index(after: index) }
                    guard index < line.endIndex else { return nil }
                    values.append(String(Substring(line[start..<index])))
                    index = line.index(after: index)
                } else {
                    let start = index
                    while index < line.endIndex, ![UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":")].contains(line[index]) {
                        index = line.index(after: index)
                    }
                    values.append(String(Substring(line[start..<index])))
                }
                guard index < line.endIndex, line[index] == UInt8(ascii: ",") else { break }
                index = line.index(after: index)
            }
            parameters.append(Parameter(name: parameterName, values: values))
        }
        guard index < line.endIndex, line[index] == UInt8(ascii: ":") else { return nil }
        self.name = lineName
        self.parameters = parameters
        self.value = String(Substring(line[line.index(after: index)...]))
        // Folded inside a character, the bytes as they came are not text:
        // such a line is written anew, folded between characters.
        self.original = String(validating: original, as: UTF8.self) == nil ? nil : original
    }

    /// The line unfolded, as it is written when made or changed here.
    var unfolded: String {
        var text = name
        for parameter in parameters {
            text += ";" + parameter.name + "="
            text += parameter.values.map { value in
                value.contains(where: { $0 == ":" || $0 == ";" || $0 == "," }) ? "\"\(value)\"" : value
            }.joined(separator: ",")
        }
        return text + ":" + value
    }
}
