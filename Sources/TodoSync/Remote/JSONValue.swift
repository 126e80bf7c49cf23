import Foundation
import TodoCore

/// Any JSON value, read without a schema: servers disagree on types.
public enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case let .bool(value): try container.encode(value)
        case let .integer(value): try container.encode(value)
        case let .number(value): try container.encode(value)
        case let .string(value): try container.encode(value)
        case let .array(value): try container.encode(value)
        case let .object(value): try container.encode(value)
        }
    }

    /// Parses bytes; throws if they are not one complete JSON value.
    public static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    /// Compact JSON text, keys sorted. Written by hand: a push of 10,000
    /// todos writes each as a request body, and `JSONEncoder` took a seventh
    /// of its time (a property test checks that `parse` reads every value back).
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        write(to: &out)
        return out
    }

    private func write(to out: inout [UInt8]) {
        switch self {
        case .null: out += "null".utf8
        case let .bool(flag): out += (flag ? "true" : "false").utf8
        case let .integer(number): out += String(number).utf8
        case let .number(number): out += (number.isFinite ? "\(number)" : "null").utf8
        case let .string(text): Self.write(text, to: &out)
        case let .array(values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case let .object(members):
            out.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.write(key, to: &out)
                out.append(UInt8(ascii: ":"))
                members[key]!.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped, the rest as UTF-8.
    private static func write(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += #"\""#.utf8
            case UInt8(ascii: "\\"): out += #"\\"#.utf8
            case 0x0A: out += #"\n"#.utf8
            case 0x0D: out += #"\r"#.utf8
            case 0x09: out += #"\t"#.utf8
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += #"\u00"#.utf8
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    public subscript(key: String) -> JSONValue? {
        if case let .object(object) = self { object[key] } else { nil }
    }
}

// MARK: - Literals

/// JSON written in code as Swift literals (`todo mcp`'s schemas): `["type": "string"]`.
extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue {
    /// A field's value as a todo's JSON writes it.
    public init(_ value: FieldValue) {
        switch value {
        case .none: self = .null
        case let .flag(flag): self = .bool(flag)
        case let .text(text): self = .string(text)
        case let .list(list): self = .array(list.map(JSONValue.string))
        }
    }
}
