import Foundation

/// A request body checked to be a todo the server can store.
///
/// The rules: a JSON object; `id`, if present, a non-empty string or an
/// integer; `title` a string; `completed` a boolean. Any other field is kept
/// as sent. `version` and `updatedAt` belong to the server and are ignored.
public struct TodoPayload: Sendable, Equatable {
    /// The body's original text: what is stored, less the server's fields.
    public let json: String
    /// The id the client gave, if any.
    public let id: TodoID?

    /// Longest id accepted, in characters.
    public static let maxIDLength = 256

    /// Checks `text` and throws a 400 saying what is wrong with it.
    public init(json text: String) throws(ServerError) {
        guard !text.allSatisfy(\.isWhitespace) else {
            throw .badRequest("The request body is empty; send a JSON object such as {\"title\": \"Buy milk\"}.")
        }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        } catch {
            throw .badRequest("The request body is not valid JSON.")
        }
        guard case .object(let fields) = value else {
            throw .badRequest("The request body must be a JSON object, not \(value.typeName).")
        }
        for name in fields.keys where name.contains("\"") || name.contains("\\") {
            throw .badRequest("Field name \(name.debugDescription) is not supported: names may not contain quotes or backslashes.")
        }
        if let title = fields["title"] {
            guard case .string = title else {
                throw .badRequest("Field \"title\" must be a string, not \(title.typeName).")
            }
        }
        if let completed = fields["completed"] {
            guard case .bool = completed else {
                throw .badRequest("Field \"completed\" must be true or false, not \(completed.typeName).")
            }
        }
        self.json = text
        self.id = try fields["id"].map(Self.id(from:))
    }

    private static func id(from value: JSONValue) throws(ServerError) -> TodoID {
        switch value {
        case .string(let string) where !string.isEmpty && string.count <= maxIDLength:
            return .string(string)
        case .integer(let number):
            return .number(number)
        default:
            throw .badRequest("Field \"id\" must be a non-empty string of at most \(maxIDLength) characters or an integer.")
        }
    }
}
