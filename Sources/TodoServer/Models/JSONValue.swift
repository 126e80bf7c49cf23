/// Enough of a JSON value to check a request body's shape.
///
/// The server never re-encodes a client's JSON from this: bodies are stored
/// from their original text, so numbers, nesting and unknown fields come back
/// exactly as sent. This only answers "is it an object, and what type is each field".
enum JSONValue: Decodable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number
    case string(String)
    case array
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if (try? container.decode(Double.self)) != nil {
            self = .number
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if (try? container.decode([JSONValue].self)) != nil {
            self = .array
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The name a client would use for this type, for error messages.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
