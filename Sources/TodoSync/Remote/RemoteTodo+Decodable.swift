import Foundation
import TodoCore

// MARK: - Reading a list straight from JSON
// A first sync reads a list of 100,000 items: building a `JSONValue` tree of
// each, every field of it a dictionary entry, costs more than the rest of the
// reading. These types read only the fields sync uses, with the same tolerance
// as `RemoteTodo(json:names:)` (a test pins that both read alike).

extension RemoteTodo {
    /// A decoder for lists and feed pages, reading fields by these names.
    static func decoder(names: FieldNames) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.userInfo[RemoteListElement.namesKey] = names
        return decoder
    }
}

/// One element of a list: the item, or nil if it is not an object with a usable id.
struct RemoteListElement: Decodable {
    static let namesKey = CodingUserInfoKey(rawValue: "TodoSync.FieldNames")!

    var todo: RemoteTodo?

    init(from decoder: any Decoder) throws {
        let names = decoder.userInfo[Self.namesKey] as? FieldNames ?? FieldNames()
        guard let object = try? decoder.container(keyedBy: FieldKey.self),
              let id = object.idText()
        else { return }
        var clientId: UUID?
        if let marker = object.value(String.self, names.marker) { clientId = UUID(parsing: marker) }
        let title: String
        if let text = object.value(String.self, names.title) {
            title = RemoteTodo.text(.string(text))
        } else if let number = object.value(Int64.self, names.title) {
            title = RemoteTodo.text(.integer(number))
        } else if let number = object.value(Double.self, names.title) {
            title = RemoteTodo.text(.number(number))
        } else {
            title = RemoteTodo.text(nil)
        }
        let completed: JSONValue? = if let flag = object.value(Bool.self, names.completed) {
            .bool(flag)
        } else if let number = object.value(Int64.self, names.completed) {
            .integer(number)
        } else {
            object.value(String.self, names.completed).map(JSONValue.string)
        }
        todo = RemoteTodo(
            id: id,
            fields: SyncFields(text: title, isDone: RemoteTodo.flag(completed)),
            clientId: clientId,
            updatedAt: object.value(String.self, "updatedAt").flatMap(ISO8601.date(from:)),
            version: object.value(Int64.self, "version").map { Int($0) }
        )
    }
}

/// One element of a list of tombstones: just its id, if usable.
struct RemoteListID: Decodable {
    var id: String?

    init(from decoder: any Decoder) throws {
        id = (try? decoder.container(keyedBy: FieldKey.self))?.idText()
    }
}

/// Any field name.
struct FieldKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer<FieldKey> {
    /// The field's value if it has this type; nil if it is missing, null or of another type.
    func value<T: Decodable>(_ type: T.Type, _ name: String) -> T? {
        // One lookup; an error is thrown (and costs) only for another type.
        (try? decodeIfPresent(type, forKey: FieldKey(stringValue: name))) ?? nil
    }

    /// The `id` as text, as `RemoteTodo.idText` reads it.
    func idText() -> String? {
        if let text = value(String.self, "id") {
            return RemoteTodo.idText(.string(text))
        }
        return value(Int64.self, "id").flatMap { RemoteTodo.idText(.integer($0)) }
    }
}
