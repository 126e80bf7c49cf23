import Foundation
import TodoSync

/// A tool call's arguments, read by name and type: each wrong one is a
/// one-line error naming the argument, what it got and what it takes.
struct ToolArguments {
    let tool: String
    private let values: [String: JSONValue]

    /// Refuses arguments the tool does not take, listing the ones it does.
    init(tool: String, values: [String: JSONValue]?, accepted: [String]) throws(ToolError) {
        self.tool = tool
        self.values = values ?? [:]
        if let unknown = self.values.keys.sorted().first(where: { !accepted.contains($0) }) {
            throw ToolError("\(tool) takes no argument '\(unknown)': it takes " + accepted.joined(separator: ", "))
        }
    }

    /// Whether the argument was given, even as null.
    func has(_ name: String) -> Bool { values[name] != nil }

    /// An object's arguments (`where`), read as a tool's are, or nil when absent or null.
    func object(_ name: String, accepted: [String]) throws(ToolError) -> (arguments: ToolArguments, value: JSONValue)? {
        switch values[name] {
        case nil, .null?: return nil
        case let .object(fields)?: return (try ToolArguments(tool: "\(tool)'s '\(name)'", values: fields, accepted: accepted), .object(fields))
        case let other?: throw mistyped(name, other, "an object")
        }
    }

    /// A string, or nil when absent or null.
    func string(_ name: String) throws(ToolError) -> String? {
        switch values[name] {
        case nil, .null?: return nil
        case let .string(text)?: return text
        case let other?: throw mistyped(name, other, "a string")
        }
    }

    func requiredString(_ name: String) throws(ToolError) -> String {
        guard let text = try string(name) else {
            throw ToolError("\(tool) needs '\(name)', a string")
        }
        return text
    }

    func bool(_ name: String) throws(ToolError) -> Bool {
        switch values[name] {
        case nil, .null?: return false
        case let .bool(flag)?: return flag
        case let other?: throw mistyped(name, other, "true or false")
        }
    }

    /// A whole number in `range`, or nil when absent.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(ToolError) -> Int? {
        let number: Int
        switch values[name] {
        case nil, .null?: return nil
        case let .integer(value)?: number = Int(value)
        case let .number(value)? where value.rounded() == value && abs(value) < 1e15: number = Int(value)
        case let other?: throw mistyped(name, other, "a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        guard range.contains(number) else {
            throw ToolError("'\(name)' must be from \(range.lowerBound) to \(range.upperBound), got \(number)")
        }
        return number
    }

    /// An array of strings (a single string is taken as an array of one).
    func strings(_ name: String) throws(ToolError) -> [String] {
        switch values[name] {
        case nil, .null?: return []
        case let .string(text)?: return [text]
        case let .array(items)?:
            var strings: [String] = []
            for item in items {
                guard case let .string(text) = item else { throw mistyped(name, .array(items), "an array of strings") }
                strings.append(text)
            }
            return strings
        case let other?: throw mistyped(name, other, "an array of strings")
        }
    }

    /// IDs: `ids`, an array of at least one.
    func ids(_ name: String = "ids") throws(ToolError) -> [String] {
        let ids = try strings(name)
        guard !ids.isEmpty else { throw ToolError("\(tool) needs '\(name)': the IDs of the todos, full or a unique prefix") }
        return ids
    }

    /// A string that must be one of `choices`, or nil when absent.
    func choice(_ name: String, _ choices: [String]) throws(ToolError) -> String? {
        guard let text = try string(name) else { return nil }
        guard choices.contains(text) else {
            throw ToolError("'\(name)' must be one of " + choices.joined(separator: ", ") + ", got '\(text)'")
        }
        return text
    }

    private func mistyped(_ name: String, _ value: JSONValue, _ expected: String) -> ToolError {
        ToolError("'\(name)' must be \(expected), got \(Self.kind(of: value))")
    }

    private static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case let .bool(flag): "\(flag)"
        case let .integer(number): "the number \(number)"
        case let .number(number): "the number \(number)"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A tool call that could not be carried out: one line saying what was wrong
/// and what to do, the same words the command line uses where it has them.
struct ToolError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
